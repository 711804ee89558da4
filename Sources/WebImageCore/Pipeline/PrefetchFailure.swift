import FoundationEssentials

/// A URL of a prefetch that failed or was skipped, and why (``PrefetchToken/failures``).
public struct PrefetchFailure: Sendable {
    /// The URL's position in the list given to ``ImagePrefetcher/prefetch(_:progress:completion:)``.
    public let index: Int
    /// The URL; nil when the list held nil or an unparseable string there.
    public let url: URL?
    public let error: ImageManagerError
    /// True when the URL was not tried (counted in ``PrefetchProgress/skipped``), false when
    /// it was tried and failed (``PrefetchProgress/failed``).
    public let skipped: Bool
}
