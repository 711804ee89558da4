import Foundation

/// Reading the image file a command works on.
public enum InputFile {
    /// All bytes of the file at `path`.
    /// - Throws: ``CLIError`` when the file is missing, a folder, or unreadable.
    public static func read(_ path: String) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError("no such file: '\(path)'")
        }
        guard !isDirectory.boolValue else {
            throw CLIError("'\(path)' is a folder, not a file")
        }
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw CLIError("cannot read '\(path)': \(error.localizedDescription)")
        }
    }
}
