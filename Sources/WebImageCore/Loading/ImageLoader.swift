/// Fetches the bytes of URLs: a loader plugin (through ``PluginLoader``) or an in-process
/// loader. Transfers are asynchronous; events arrive on the loader's own thread, in the
/// order ``LoadEvent`` gives, and the handler must not block.
public protocol ImageLoader: Sendable {
    /// The URL schemes served, lowercase (`http`, `https`, `file`, `data`, ...).
    var schemes: [String] { get }

    /// Starts a transfer. `handler` is called for each event, `.completed` exactly once
    /// (also after ``LoadTask/cancel()``).
    /// - Throws: ``ImageLoadingError`` when the request is refused before it starts (then
    ///   `handler` is never called).
    func start(_ request: LoadRequest, handler: @escaping @Sendable (LoadEvent) -> Void)
        throws(ImageLoadingError) -> any LoadTask
}

/// A started transfer.
public protocol LoadTask: AnyObject, Sendable {
    /// Stops the transfer; it completes with ``ImageLoadingError/Kind/cancelled`` unless it
    /// already completed. Idempotent, from any thread.
    func cancel()
}

extension ImageLoader {
    /// True when this loader serves the scheme of `url`.
    public func serves(_ url: String) -> Bool {
        guard let colon = url.utf8.firstIndex(of: UInt8(ascii: ":")) else { return false }
        return schemes.contains(String(lowercasing: url.utf8[..<colon]))
    }

    /// The transfer's events as an async sequence: `.response`, `.data`..., then the
    /// sequence ends (or throws the ``ImageLoadingError``). Cancelling the consuming task
    /// or dropping the sequence cancels the transfer.
    public func events(for request: LoadRequest) -> AsyncThrowingStream<LoadEvent, any Error> {
        AsyncThrowingStream { continuation in
            do {
                let task = try start(request) { event in
                    switch event {
                    case .completed(.success):
                        continuation.yield(event)
                        continuation.finish()
                    case .completed(.failure(let error)): continuation.finish(throwing: error)
                    default: continuation.yield(event)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            } catch {
                continuation.finish(throwing: error)
            }
        }
    }

    /// Loads the whole body.
    /// - Returns: the response and the body; the body is complete (never a truncated one).
    /// - Throws: ``ImageLoadingError``; `.cancelled` when the calling task is cancelled.
    public func load(_ request: LoadRequest) async throws(ImageLoadingError) -> (LoadResponse, [UInt8], LoadMetrics) {
        var response: LoadResponse?
        var body: [UInt8] = []
        do {
            for try await event in events(for: request) {
                switch event {
                case .response(let head): response = head
                case .data(let chunk): body.append(contentsOf: chunk)
                case .completed(.success(let metrics)):
                    guard let response else {
                        throw ImageLoadingError(.networkError, "the transfer ended without a response")
                    }
                    return (response, body, metrics)
                case .completed(.failure(let error)): throw error
                }
            }
        } catch let error as ImageLoadingError {
            throw error
        } catch {
            throw ImageLoadingError(.networkError, "\(error)")
        }
        throw ImageLoadingError(.cancelled, "cancelled")
    }
}
