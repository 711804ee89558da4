import Foundation

/// Runs one command with `redis-cli` against the test server and returns its raw reply line
/// (`:100` for an integer, `$2`... for strings).
enum RedisCommand {
    static func run(port: Int, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-cli")
        process.arguments = ["-h", "127.0.0.1", "-p", String(port), "--no-raw"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "(integer) ", with: ":")
    }
}
