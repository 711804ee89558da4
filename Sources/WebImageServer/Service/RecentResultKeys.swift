import WebImageCore

/// The result keys of request paths answered lately, so that a repeated path (most of an image
/// server's traffic) finds its result without its signature being checked and its options
/// parsed again: the same path under the same signing keys always resolves the same way.
/// Keyed by the whole path, signature included, and the client's `Accept`; it holds at most
/// ``capacity`` paths and starts empty again when full.
final class RecentResultKeys: Sendable {
    /// What a path resolved to.
    struct Entry: Sendable {
        /// The result's key in the result caches.
        let key: String
        /// Whether the output format was negotiated from `Accept` (the answer says `Vary: Accept`).
        let isNegotiated: Bool
    }

    /// The most paths kept: 10,000 (a few MB).
    let capacity: Int
    private let entries = TrackedMutex<[String: Entry]>([:])

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    func entry(path: String, accept: String?) -> Entry? {
        entries.withLock { $0[Self.key(path, accept)] }
    }

    func keep(_ entry: Entry, path: String, accept: String?) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[Self.key(path, accept)] = entry
        }
    }

    private static func key(_ path: String, _ accept: String?) -> String {
        guard let accept else { return path }
        return path + "\n" + accept
    }
}
