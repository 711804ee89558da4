import Foundation
import WebImageCLISupport

/// The URLs of one `webimage fetch` (duplicates dropped, first order kept) and the file each
/// body goes to: the URL's last path component (`index` when empty), made unique with
/// `-2`, `-3`... in the output folder (`data:` URLs are `index` too).
struct FetchPlan {
    struct Item {
        let url: String
        let file: URL
    }

    let items: [Item]

    init(urls: [String], folder: URL) {
        var names = UniqueFileNames()
        items = urls.map { url in
            let base = Self.fileName(for: url)
            let name = names.claim(base, suffixed: { "\(base)-\($0)" }) {
                FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
            }
            return Item(url: url, file: folder.appendingPathComponent(name))
        }
    }

    /// The URLs of the arguments, then of `listFile` (`-` for standard input), each once.
    static func urls(arguments: [String], listFile: String?) throws -> [String] {
        let all = arguments + (try listFile.map(listedURLs) ?? [])
        var seen: Set<String> = []
        return all.filter { seen.insert($0).inserted }
    }

    /// The URLs in `listFile` (`-` for standard input), one a line, in order and repeats kept;
    /// blank lines and lines starting with `#` are skipped, spaces around a URL trimmed.
    /// - Throws: ``InputFileError`` when the file cannot be read.
    static func listedURLs(_ listFile: String) throws -> [String] {
        let text: String
        if listFile == "-" {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        } else {
            text = String(decoding: try InputFile.read(listFile), as: UTF8.self)
        }
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// A safe file name from the URL's path.
    static func fileName(for url: String) -> String {
        var path = Substring(url)
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        guard let scheme = path.range(of: "://") else { return "index" }  // data: and other opaque URLs
        path = path[scheme.upperBound...]
        let components = path.split(separator: "/")
        let last = components.count > 1 ? String(components.last!) : ""
        let cleaned = String(last.map { $0.isLetter || $0.isNumber || "._-".contains($0) ? $0 : "_" })
        return cleaned.isEmpty || cleaned.allSatisfy({ $0 == "." }) ? "index" : cleaned
    }
}
