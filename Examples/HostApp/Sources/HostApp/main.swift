import Foundation
import WebImageCore

// Loads every URL of a list (one a line) into a 256x256 thumbnail through the shared image
// manager, all at once, and prints one line for each, in the list's order:
//     <url> <network|memory|disk> <width>x<height>
// (where the image came from: SDWebImage's cacheType none, memory or disk), or
//     <url> failed <error>
// Exit status 1 when any failed. Run it twice: the second run reads the disk cache.
// Usage: HostApp URL-LIST CACHE-FOLDER

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: HostApp URL-LIST CACHE-FOLDER\n".utf8))
    exit(2)
}
let urls = try String(contentsOfFile: arguments[1], encoding: .utf8).split(separator: "\n").map(String.init)

var configuration = ImageManagerConfiguration()
configuration.cache.directory = arguments[2]
try ImageManager.configureShared(configuration)
let manager = try ImageManager.shared

var context = ImageContext()
context.thumbnail = ThumbnailSize(width: 256, height: 256)
let thumbnails = context
let lines = await withTaskGroup(of: (Int, String).self) { group in
    for (index, url) in urls.enumerated() {
        group.addTask {
            do {
                let result = try await manager.image(for: url, context: thumbnails)
                let source =
                    switch result.cacheType {
                    case .none: "network"
                    case .memory: "memory"
                    case .disk, .all: "disk"
                    }
                return (index, "\(url) \(source) \(result.image?.width ?? 0)x\(result.image?.height ?? 0)")
            } catch {
                return (index, "\(url) failed \(error)")
            }
        }
    }
    var lines = [String](repeating: "", count: urls.count)
    for await (index, line) in group { lines[index] = line }
    return lines
}
// The disk stores run after each result is delivered; the next run finds them.
await manager.waitUntilIdle()
for line in lines { print(line) }
exit(lines.contains { $0.split(separator: " ").dropFirst().first == "failed" } ? 1 : 0)
