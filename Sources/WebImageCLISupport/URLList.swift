import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

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
            text = String(decoding: readStandardInput(), as: UTF8.self)
        } else {
            text = String(decoding: try InputFile.read(listFile), as: UTF8.self)
        }
        return lines(of: text).filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// The lines of `text` (split at every newline character), each without the spaces and
    /// tabs around it. An ASCII text, the usual list, is split and trimmed byte by byte; a
    /// list of 1,000 URLs took 45,000 instructions a line through `Character` and Foundation.
    package static func lines(of text: String) -> [String] {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
            return text.split(whereSeparator: \.isNewline).map { line in
                let start = line.firstIndex(where: { !$0.isWhitespace }) ?? line.endIndex
                let end = line.lastIndex(where: { !$0.isWhitespace }).map(line.index(after:)) ?? line.startIndex
                return start < end ? String(line[start..<end]) : ""
            }
        }
        // LF, VT, FF and CR: the ASCII newlines of `Character.isNewline`.
        return text.utf8.split(whereSeparator: { (10...13).contains($0) }).map { line in
            let start = line.firstIndex(where: { !isSpace($0) }) ?? line.endIndex
            let end = line.lastIndex(where: { !isSpace($0) }).map(line.index(after:)) ?? line.startIndex
            return start < end ? String(Substring(line[start..<end])) : ""
        }
    }

    /// Everything on descriptor 0 until its end (a pipe closed, a file read to the end), or
    /// what came before a read error.
    private static func readStandardInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }
}
