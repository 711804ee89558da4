import Foundation

/// Runs command-line tools (`cc`, `djpeg`, `heif-convert`...) from tests.
public enum ChildProcess {
    /// Runs `tool` with `arguments`, waits for it and returns its standard output.
    ///
    /// Standard error is discarded.
    /// - Throws: ``HarnessError`` when the tool cannot start or exits with a status other than 0.
    public static func output(of tool: String, _ arguments: [String]) throws -> [UInt8] {
        expectOwnThreadWhenBlocking("running \(tool)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw HarnessError("cannot run \(tool): \(error)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw HarnessError("\(tool) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return [UInt8](data)
    }
}
