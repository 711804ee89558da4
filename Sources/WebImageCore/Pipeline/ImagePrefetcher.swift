import FoundationEssentials

/// Loads images ahead of time into the caches (SDWebImage's `SDWebImagePrefetcher`): at most
/// ``maxConcurrentPrefetchCount`` requests at once across all its prefetches, with its own
/// options and context. Each ``prefetch(_:progress:completion:)`` returns a token with its
/// own counts and completion; overlapping prefetches each complete.
public final class ImagePrefetcher: Sendable {
    public let manager: ImageManager
    /// Most requests at once; default 3.
    public let maxConcurrentPrefetchCount: Int
    /// Default `.lowPriority`.
    public let options: ImageManagerOptions
    public let context: ImageContext

    private struct State {
        var tokens: [PrefetchToken] = []
        var running = 0
    }

    private let state = TrackedMutex(State())

    public init(
        manager: ImageManager, maxConcurrentPrefetchCount: Int = 3, options: ImageManagerOptions = .lowPriority,
        context: ImageContext = ImageContext()
    ) {
        self.manager = manager
        self.maxConcurrentPrefetchCount = max(1, maxConcurrentPrefetchCount)
        self.options = options
        self.context = context
    }

    /// Prefetches `urls` in order; the images go to the caches only. An empty list completes at once.
    /// - Parameters:
    ///   - progress: after each URL ends, with the counts so far.
    ///   - completion: once, after the last URL, with the final counts (not after ``PrefetchToken/cancel()``).
    @discardableResult
    public func prefetch(
        _ urls: [URL?], progress: (@Sendable (PrefetchProgress) -> Void)? = nil,
        completion: (@Sendable (PrefetchProgress) -> Void)? = nil
    ) -> PrefetchToken {
        let token = PrefetchToken(urls: urls, prefetcher: self, progress: progress, completion: completion)
        guard !urls.isEmpty else {
            token.completeEmpty()
            return token
        }
        state.withLock { $0.tokens.append(token) }
        schedule()
        return token
    }

    /// ``prefetch(_:progress:completion:)`` for URL strings (an unparseable one is skipped).
    @discardableResult
    public func prefetch(
        strings urls: [String], progress: (@Sendable (PrefetchProgress) -> Void)? = nil,
        completion: (@Sendable (PrefetchProgress) -> Void)? = nil
    ) -> PrefetchToken {
        prefetch(urls.map { URL(string: $0) }, progress: progress, completion: completion)
    }

    /// Cancels every prefetch of this prefetcher.
    public func cancelAll() {
        for token in state.withLock({ $0.tokens }) { token.cancel() }
    }

    /// Requests running now.
    public var runningCount: Int { state.withLock { $0.running } }

    /// Starts waiting URLs while there is room, oldest prefetch first.
    func schedule() {
        while true {
            let next = state.withLock { state -> (PrefetchToken, Int, URL?)? in
                state.tokens.removeAll(where: \.isFinished)
                guard state.running < maxConcurrentPrefetchCount else { return nil }
                for token in state.tokens where token.hasWaiting {
                    if let (index, url) = token.takeNext() {
                        state.running += 1
                        return (token, index, url)
                    }
                }
                return nil
            }
            guard let (token, index, url) = next else { return }
            let once = TrackedMutex(false)
            let operation = manager.load(url, options: options, context: context) { [self] result in
                guard
                    !once.withLock({ done in
                        defer { done = true }
                        return done
                    })
                else { return }
                var failure: PrefetchFailure?
                if case .failure(let error) = result {
                    let skipped = [.invalidURL, .blockedURL, .unsupportedURL].contains(error.kind)
                    failure = PrefetchFailure(index: index, url: url, error: error, skipped: skipped)
                }
                state.withLock { $0.running -= 1 }
                token.ended(index, failure: failure)
                schedule()
            }
            token.started(index, operation)
        }
    }
}
