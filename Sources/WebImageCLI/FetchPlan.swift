import FoundationEssentials
import WebImageCLISupport

/// The URLs of one `webimage fetch` (duplicates dropped, first order kept) and the file each
/// body goes to in the output folder (``OutputFolder/claim(for:fileExtension:)``).
struct FetchPlan {
    struct Item {
        let url: String
        let file: OutputFolder.File
    }

    let items: [Item]

    /// - Throws: ``CLIError`` if a file would not lie in the folder (never expected).
    init(urls: [String], folder: OutputFolder) throws {
        var folder = folder
        items = try urls.map { url in Item(url: url, file: try folder.claim(for: url)) }
    }
}
