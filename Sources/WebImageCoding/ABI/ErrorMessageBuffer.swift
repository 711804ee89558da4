import CWebImagePlugin

/// A `webimage_error` with its own message storage, for one call across the ABI.
public struct ErrorMessageBuffer: ~Copyable {
    /// Bytes of message a plugin may write, including the terminating NUL.
    public static let capacity = 1024
    private let storage: UnsafeMutablePointer<CChar>

    public init() {
        storage = .allocate(capacity: Self.capacity)
        storage.initialize(to: 0)
    }

    deinit { storage.deallocate() }

    /// Calls `body` with a `webimage_error` that points into this buffer.
    public func withError<Result>(_ body: (UnsafeMutablePointer<webimage_error>) throws -> Result) rethrows -> Result {
        var error = webimage_error(message: storage, message_capacity: Self.capacity)
        return try body(&error)
    }

    /// The message the plugin wrote, or `fallback` when it wrote none.
    public func message(or fallback: String) -> String {
        let text = String(cString: storage)
        return text.isEmpty ? fallback : text
    }

    /// The error for a failed `status`, with the plugin's message.
    public func error(for status: webimage_status, operation: String) -> ImageCodingError {
        PluginStatus(status).codingError(message(or: "\(operation) failed with status \(status)"))
    }
}
