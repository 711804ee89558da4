import CWebImagePlugin

/// Runs one function of a plugin's C shim with a `webimage_error` over a message buffer on
/// the stack, and turns a failed `webimage_status` into an ``ImageCodingError`` through
/// ``PluginStatus``.
///
/// The wording is per plugin: truncated data reads "truncated <format>: <reason>", corrupt
/// data "corrupt <format>: <reason>", every other status the shim's reason as written. A shim
/// that writes no reason gets "<library> failed".
public struct ShimCall: Sendable {
    /// Bytes of the message buffer handed to the shim, including the terminating NUL.
    public static let messageCapacity = 512

    /// The format's name in messages, for example `PNG`.
    public let format: String
    /// The native library's name in messages, for example `libpng`.
    public let library: String

    public init(format: String, library: String) {
        self.format = format
        self.library = library
    }

    /// Calls `body` with an empty `webimage_error`; throws when it returns anything but
    /// `WEBIMAGE_STATUS_OK`.
    public func run(_ body: (inout webimage_error) -> webimage_status) throws(ImageCodingError) {
        let (status, message) = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Self.messageCapacity) {
            buffer -> (webimage_status, String) in
            let storage = buffer.baseAddress!
            storage.initialize(to: 0)
            var error = webimage_error(message: storage, message_capacity: Self.messageCapacity)
            let status = body(&error)
            if status == WEBIMAGE_STATUS_OK { return (status, "") }
            return (status, String(cString: storage))
        }
        if status != WEBIMAGE_STATUS_OK { throw error(PluginStatus(status), message) }
    }

    /// The error for a failed `status` whose shim wrote `message` (possibly empty).
    public func error(_ status: PluginStatus, _ message: String) -> ImageCodingError {
        let reason = message.isEmpty ? "\(library) failed" : message
        switch status.rawValue {
        case WEBIMAGE_STATUS_TRUNCATED_DATA: return status.codingError("truncated \(format): \(reason)")
        case WEBIMAGE_STATUS_CORRUPT_DATA: return status.codingError("corrupt \(format): \(reason)")
        default: return status.codingError(reason)
        }
    }
}
