import Foundation

/// The process's resident memory, from `/proc/self/statm`.
public enum ResidentMemory {
    public struct Unreadable: Error {}

    /// Resident bytes now (the second field of statm, in pages).
    public static func bytes() throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { throw Unreadable() }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
