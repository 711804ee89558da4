/// URLs whose download failed for a reason that will repeat (SDWebImage's `failedURLs`):
/// they are refused at once afterwards unless ``ImageManagerOptions/retryFailed``.
/// Cancellations, timeouts, connection errors, 5xx and 429 never block a URL; a success unblocks it.
public final class FailedURLList: Sendable {
    private let urls = TrackedMutex<Set<String>>([])

    public init() {}

    public func contains(_ url: String) -> Bool { urls.withLock { $0.contains(url) } }

    public func insert(_ url: String) { _ = urls.withLock { $0.insert(url) } }

    public func remove(_ url: String) { _ = urls.withLock { $0.remove(url) } }

    public func removeAll() { urls.withLock { $0.removeAll() } }

    public var count: Int { urls.withLock { $0.count } }

    /// True when `error` will happen again for the same URL: a 4xx (other than 408 and 429),
    /// an unacceptable content type, a body over the limit, a decryptor or request modifier
    /// refusal, a destination the policy refuses, bytes no coder decodes. An invalid header is
    /// the request's, not the URL's, and does not block. A decode that failed for a reason outside the bytes
    /// (the coder's plugin could not be opened, its worker was disabled, memory ran out, the
    /// decode was cancelled) does not block.
    static func blocks(_ error: ImageManagerError) -> Bool {
        switch error.kind {
        case .decodeFailed:
            switch error.codingError?.kind {
            case .pluginUnavailable?, .pluginDisabled?, .outOfMemory?, .cancelled?: return false
            default: return true
            }
        case .loadFailed:
            guard let loading = error.loadingError else { return false }
            switch loading.kind {
            case .badStatus:
                guard let status = loading.statusCode else { return true }
                return (400..<500).contains(status) && status != 408 && status != 429
            case .badContentType, .tooLarge, .decryptionFailed, .requestModifierFailed, .invalidURL,
                .destinationRefused:
                return true
            case .cancelled, .timedOut, .networkError, .notModified, .invalidHeader: return false
            }
        default: return false
        }
    }
}
