import CWebImagePlugin
import WebImageCore

/// A `webimage_host` whose allocator is the standard host's and whose log keeps every line, to
/// check what a plugin logs.
enum CountingHost {
    /// The lines logged through ``host`` with their levels.
    static let lines = TrackedMutex<[(level: Int32, message: String)]>([])

    nonisolated(unsafe) static let host: UnsafePointer<webimage_host> = {
        let host = UnsafeMutablePointer<webimage_host>.allocate(capacity: 1)
        host.initialize(to: HostServices.host.pointee)
        host.pointee.log = { _, level, message in
            let text = String(cString: message)
            CountingHost.lines.withLock { $0.append((level, text)) }
        }
        return UnsafePointer(host)
    }()

    /// The warnings logged so far.
    static var warnings: [String] { lines.withLock { $0.filter { $0.level == WEBIMAGE_LOG_WARNING }.map(\.message) } }
}
