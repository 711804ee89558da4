import Foundation

/// The URLs a command is given: as arguments and in a list file (`--from`/`--urls`).
package enum URLList {
    /// The URLs of the arguments, then of `listFile` (`-` for standard input), each once.
    /// - Throws: ``InputFileError`` when the file cannot be read.
    package static func urls(arguments: [String], listFile: String?) throws -> [String] {
        let all = arguments + (try listFile.map(listedURLs) ?? [])
        var seen: Set<String> = []
        return all.filter { seen.insert($0).inserted }
    }

    /// The URLs in `listFile` (`-` for standard input), one a line, in order and repeats kept;
    /// blank lines and lines starting with `#` are skipped, spaces around a URL trimmed.
    /// - Throws: ``InputFileError`` when the file cannot be read.
    package static func listedURLs(_ listFile: String) throws -> [String] {
        let text: String
        if listFile == "-" {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        } else {
            text = String(decoding: try InputFile.read(listFile), as: UTF8.self)
        }
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
