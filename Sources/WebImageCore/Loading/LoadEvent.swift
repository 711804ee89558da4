/// What a transfer reports, in order: one `.response`, any number of `.data`, one `.completed`.
public enum LoadEvent: Sendable, Equatable {
    /// The final response's head (after redirects).
    case response(LoadResponse)
    /// A chunk of the body as it arrived (content encoding undone).
    case data([UInt8])
    /// The end: metrics on success, the typed error otherwise.
    case completed(Result<LoadMetrics, ImageLoadingError>)
}
