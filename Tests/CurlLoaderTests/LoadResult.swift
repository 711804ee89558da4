import WebImageCore

/// The outcome of one load, collected from its events in order.
struct LoadResult: Sendable {
    var response: LoadResponse?
    var body: [UInt8] = []
    var chunks = 0
    var outcome: Result<LoadMetrics, ImageLoadingError>?

    var error: ImageLoadingError? {
        if case .failure(let error) = outcome { return error }
        return nil
    }

    /// Loads `request` through `loader`, keeping what arrived even when it fails.
    static func collect(_ loader: some ImageLoader, _ request: LoadRequest) async -> LoadResult {
        var result = LoadResult()
        do {
            for try await event in loader.events(for: request) {
                switch event {
                case .response(let head): result.response = head
                case .data(let chunk):
                    result.body += chunk
                    result.chunks += 1
                case .completed(let outcome): result.outcome = outcome
                }
            }
        } catch let error as ImageLoadingError {
            result.outcome = .failure(error)
        } catch {
            result.outcome = .failure(ImageLoadingError(.networkError, "\(error)"))
        }
        return result
    }
}
