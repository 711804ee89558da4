import WebImageCore

/// A loader that passes every transfer to another one and reports its response, body bytes
/// and end to a ``TransferProgressBar``, so the bar moves while the bytes arrive.
package struct MeteredLoader: ImageLoader {
    package let loader: any ImageLoader
    package let bar: TransferProgressBar

    package var schemes: [String] { loader.schemes }

    package func start(_ request: LoadRequest, handler: @escaping @Sendable (LoadEvent) -> Void)
        throws(ImageLoadingError) -> any LoadTask
    {
        let bar = bar
        let transfer = bar.transferStarted()
        do {
            return try loader.start(request) { event in
                switch event {
                case .response(let response): bar.responded(transfer, expectedBytes: response.expectedContentLength)
                case .data(let chunk): bar.received(chunk.count, of: transfer)
                case .completed: bar.ended(transfer)
                }
                handler(event)
            }
        } catch {
            bar.ended(transfer)
            throw error
        }
    }

    /// `loaders`, each reporting to `bar` when there is one.
    package static func wrap(_ loaders: [any ImageLoader], reportingTo bar: TransferProgressBar?) -> [any ImageLoader] {
        guard let bar else { return loaders }
        return loaders.map { MeteredLoader(loader: $0, bar: bar) }
    }
}
