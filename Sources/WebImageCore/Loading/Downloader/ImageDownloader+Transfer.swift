/// One operation's transfer: building the request, checking the response, collecting the
/// body, retrying and finishing.
extension ImageDownloader {
    /// The loader request for `operation`: configuration and request headers, validators,
    /// timeouts, limits and the destination policy, then the request modifier; the URL's
    /// length and the headers are checked last.
    func loadRequest(for operation: DownloadOperation, resuming: ResumableData?) throws(ImageLoadingError)
        -> LoadRequest
    {
        let request = operation.request
        var load = LoadRequest(url: request.url)
        load.headers = configuration.headers
        for field in request.headers {
            load.headers[field.name] = field.value.isEmpty ? nil : field.value
        }
        if let etag = request.validators?.etag { load.headers["If-None-Match"] = etag }
        if let date = request.validators?.lastModified { load.headers["If-Modified-Since"] = date }
        load.connectTimeout = configuration.connectTimeout
        load.idleTimeout = configuration.idleTimeout
        load.minimumBytesPerSecond = configuration.minimumBytesPerSecond
        load.maxTransferTime = configuration.maxTransferTime
        load.options = request.options
        load.credential = request.credential
        load.maxBodySize = configuration.maxResponseSize
        load.maxConnectionsPerHost = configuration.maxConnectionsPerHost
        load.destinationPolicy = configuration.destinationPolicy
        if let resuming {
            load.rangeStart = UInt64(resuming.bytes.count)
            load.headers["If-Range"] = resuming.validator
        }
        if let modifier = configuration.requestModifier {
            guard let modified = modifier(load) else {
                throw ImageLoadingError(
                    .requestModifierFailed,
                    "the request modifier returned no request")
            }
            load = modified
        }
        try checkLength(of: load.url)
        try checkHeaders(load.headers)
        return load
    }

    /// Fails a URL longer than ``ImageDownloaderConfiguration/maxURLLength`` (a `data:` URL:
    /// ``ImageDownloaderConfiguration/maxDataURLLength`` or twice the response size limit).
    private func checkLength(of url: String) throws(ImageLoadingError) {
        let isData = url.utf8.prefix(5).map { $0 | 0x20 } == Array("data:".utf8)
        let limit =
            isData
            ? min(
                configuration.maxDataURLLength,
                Int(clamping: configuration.maxResponseSize.multipliedReportingOverflow(by: 2).partialValue))
            : configuration.maxURLLength
        let length = url.utf8.count
        guard length > limit else { return }
        throw ImageLoadingError(
            .invalidURL,
            "the URL is \(length) bytes long, more than the limit of \(limit) for \(isData ? "data: URLs" : "URLs")"
        )
    }

    /// Fails a header whose name is empty or holds a colon, CR, LF or NUL, or whose value holds
    /// CR, LF or NUL (it would end the header line and start another).
    /// The bytes are checked, not the characters: a NUL, CR or LF byte is refused even inside
    /// a character with combining marks, and the check costs no grapheme breaking.
    private func checkHeaders(_ headers: HTTPHeaders) throws(ImageLoadingError) {
        let isLineBreak = { (byte: UInt8) in byte == 0 || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") }
        for field in headers {
            if field.name.isEmpty || field.name.utf8.contains(where: { isLineBreak($0) || $0 == UInt8(ascii: ":") }) {
                throw ImageLoadingError(.invalidHeader, "the header name \(field.name.debugDescription) cannot be sent")
            }
            if field.value.utf8.contains(where: isLineBreak) {
                throw ImageLoadingError(
                    .invalidHeader, "the value of the header '\(field.name)' contains a line break or NUL")
            }
        }
    }

    func startTransfer(_ operation: DownloadOperation) {
        let (attempt, resuming) = state.withLock { state in
            operation.attempt += 1
            operation.response = nil
            operation.body = []
            operation.failure = nil
            operation.lastProgress = nil
            operation.receivedBytes = 0
            operation.resuming =
                operation.request.validators == nil
                ? state.resumable.removeValue(forKey: operation.request.url) : nil
            return (operation.attempt, operation.resuming)
        }
        watchLimits(of: operation, attempt: attempt)
        do throws(ImageLoadingError) {
            let request = try loadRequest(for: operation, resuming: resuming)
            guard let loader = loaders.first(where: { $0.serves(request.url) }) else {
                throw ImageLoadingError(
                    .invalidURL, "no loader serves the scheme of '\(URLText.abbreviated(request.url))'")
            }
            let handler: @Sendable (LoadEvent) -> Void = { [self] event in
                handle(event, of: operation, attempt: attempt)
            }
            let task: any LoadTask
            if let plugin = loader as? PluginLoader {
                // A plugin's bytes go straight into the body (see `receiveBody`).
                task = try plugin.start(request, handler: handler) { [self] bytes in
                    receiveBody(bytes, chunk: nil, of: operation, attempt: attempt)
                }
            } else {
                task = try loader.start(request, handler: handler)
            }
            let cancelNow = state.withLock { _ -> Bool in
                guard operation.attempt == attempt else { return false }
                operation.loadTask = task
                return operation.cancelled || operation.failure != nil
            }
            if cancelNow { task.cancel() }
        } catch {
            finish(operation, attempt: attempt, with: .failure(error))
        }
    }

    private func handle(_ event: LoadEvent, of operation: DownloadOperation, attempt: Int) {
        switch event {
        case .response(let head):
            let response = configuration.responseModifier.map { $0(head) } ?? head
            let failure = check(response, of: operation)
            let (subscribers, delivered, task) = state.withLock {
                _ -> ([DownloadOperation.Subscriber], LoadResponse?, (any LoadTask)?) in
                guard operation.attempt == attempt, operation.failure == nil else { return ([], nil, nil) }
                if let failure {
                    operation.failure = failure
                    return ([], nil, operation.loadTask)
                }
                operation.response = response
                if let resuming = operation.resuming, response?.statusCode == 206 {
                    // The rest of the saved bytes: the body continues them and is reported whole.
                    operation.body = resuming.bytes
                    operation.response?.statusCode = 200
                    if let rest = response?.expectedContentLength {
                        operation.response?.headers["Content-Length"] = String(rest + UInt64(resuming.bytes.count))
                    }
                }
                operation.resuming = nil
                return (Array(operation.subscribers.values), operation.response, nil)
            }
            task?.cancel()
            if let delivered { for subscriber in subscribers { subscriber.events?(.response(delivered)) } }
        case .data(let chunk):
            chunk.withUnsafeBytes { receiveBody($0, chunk: chunk, of: operation, attempt: attempt) }
        case .completed(let result):
            let outcome: Result<LoadMetrics, ImageLoadingError> = state.withLock { _ in
                if let failure = operation.failure { return .failure(failure) }
                return result
            }
            finish(operation, attempt: attempt, with: outcome)
        }
    }

    /// Appends a piece of the body (`bytes`; `chunk` when it came as a `.data` array) and
    /// passes it on to the callers that asked for chunks, with progress. A piece a plugin gave
    /// in place (`chunk` nil) is copied once, into the body, and into a chunk only when a
    /// caller asked for chunks.
    private func receiveBody(
        _ bytes: UnsafeRawBufferPointer, chunk: [UInt8]?, of operation: DownloadOperation, attempt: Int
    ) {
        let (subscribers, progress, task) = state.withLock {
            _ -> ([DownloadOperation.Subscriber], DownloadProgress?, (any LoadTask)?) in
            guard operation.attempt == attempt, operation.failure == nil else { return ([], nil, nil) }
            operation.receivedBytes += UInt64(bytes.count)
            if UInt64(operation.body.count + bytes.count) > configuration.maxResponseSize {
                operation.failure = ImageLoadingError(
                    .tooLarge, "the body exceeds the limit of \(configuration.maxResponseSize) bytes",
                    statusCode: operation.response?.statusCode, headers: operation.response?.headers)
                return ([], nil, operation.loadTask)
            }
            if operation.body.isEmpty {
                let expected =
                    operation.response?.expectedContentLength.map {
                        Int(clamping: min($0, configuration.maxResponseSize))
                    } ?? 0
                if let chunk, chunk.count >= expected {
                    // The whole body in one chunk (a loader that gathers small bodies): kept
                    // as it is, without a copy.
                    operation.body = chunk
                } else {
                    operation.body.reserveCapacity(max(expected, bytes.count))  // one allocation for the whole body
                    operation.body.append(contentsOf: bytes)
                }
            } else {
                operation.body.append(contentsOf: bytes)
            }
            let now = ContinuousClock.now
            var progress: DownloadProgress?
            if operation.lastProgress.map({ now - $0 >= configuration.minimumProgressInterval }) ?? true {
                operation.lastProgress = now
                progress = operation.progress
            }
            return (Array(operation.subscribers.values), progress, nil)
        }
        task?.cancel()
        var delivered = chunk
        for subscriber in subscribers {
            if let events = subscriber.events {
                if delivered == nil { delivered = Array(bytes) }
                events(.data(delivered!))
            }
            if let progress { subscriber.progress?(progress) }
        }
    }

    /// The error for an unacceptable response, or nil.
    private func check(_ response: LoadResponse?, of operation: DownloadOperation) -> ImageLoadingError? {
        guard let response else {
            return ImageLoadingError(
                .badStatus, "the response modifier refused the response of \(operation.request.url)")
        }
        let status = response.statusCode
        let headers = response.headers
        if status == 304, operation.request.validators != nil {
            return ImageLoadingError(
                .notModified, "\(operation.request.url) is not modified", statusCode: status, headers: headers)
        }
        guard configuration.acceptableStatusCodes.contains(status) else {
            return ImageLoadingError(
                .badStatus, "status \(status)", statusCode: status, headers: headers)
        }
        if let types = configuration.acceptableContentTypes, !types.contains(response.mimeType ?? "") {
            return ImageLoadingError(
                .badContentType, "content type '\(response.mimeType ?? "none")'",
                statusCode: status, headers: headers)
        }
        if let expected = response.expectedContentLength, expected > configuration.maxResponseSize {
            return ImageLoadingError(
                .tooLarge, "Content-Length \(expected) exceeds the limit of \(configuration.maxResponseSize) bytes",
                statusCode: status, headers: headers)
        }
        return nil
    }

    /// Ends an attempt: retries a transient failure, else delivers the result to every caller.
    func finish(_ operation: DownloadOperation, attempt: Int, with outcome: Result<LoadMetrics, ImageLoadingError>) {
        enum Next {
            case ignore
            case retry(Duration)
            case deliver([DownloadOperation.Subscriber], Result<DownloadResult, ImageLoadingError>)
        }
        // The loader's task comes out of the lock and is dropped after it: its release runs the
        // loader's code.
        let (next, _) = state.withLock { state -> (Next, (any LoadTask)?) in
            guard operation.attempt == attempt, operation.phase == .running else { return (.ignore, nil) }
            let endedTask = operation.loadTask
            operation.loadTask = nil
            unwatch(operation, in: &state)
            var result: Result<DownloadResult, ImageLoadingError>
            switch outcome {
            case .success(let metrics):
                if let response = operation.response {
                    result = .success(DownloadResult(response: response, data: operation.body, metrics: metrics))
                } else {
                    result = .failure(ImageLoadingError(.networkError, "the transfer ended without a response"))
                }
            case .failure(let error):
                result = .failure(error)
            }
            if operation.cancelled { result = .failure(ImageLoadingError(.cancelled, "cancelled")) }
            if case .failure = result, let resumable = ResumableData(response: operation.response, body: operation.body)
            {
                state.resumable[operation.request.url] = resumable
            }
            if case .failure(let error) = result, !operation.cancelled,
                let delay = configuration.retry.delay(after: error, attempt: attempt - 1)
            {
                return (.retry(delay), endedTask)
            }
            operation.phase = .finished
            state.running -= 1
            state.runningByHost[operation.host, default: 1] -= 1
            if state.runningByHost[operation.host] == 0 { state.runningByHost[operation.host] = nil }
            if state.operations[operation.key] === operation { state.operations[operation.key] = nil }
            let subscribers = Array(operation.subscribers.values)
            operation.subscribers.removeAll()
            // The result holds the body now. The operation outlives the delivery while a caller
            // keeps its token or until its limits watch next runs, and must not keep the body.
            operation.body = []
            return (.deliver(subscribers, result), endedTask)
        }
        switch next {
        case .ignore:
            return
        case .retry(let delay):
            Task {
                try? await Task.sleep(for: delay)
                let cancelled = state.withLock { _ in operation.cancelled }
                if cancelled {
                    finish(operation, attempt: attempt, with: .failure(ImageLoadingError(.cancelled, "cancelled")))
                } else {
                    startTransfer(operation)
                }
            }
        case .deliver(let subscribers, var result):
            if case .success(let download) = result, let decryptor = configuration.decryptor {
                if let data = decryptor(download.data, download.response) {
                    result = .success(
                        DownloadResult(response: download.response, data: data, metrics: download.metrics))
                } else {
                    result = .failure(
                        ImageLoadingError(
                            .decryptionFailed, "the decryptor refused the body of \(operation.request.url)",
                            statusCode: download.response.statusCode, headers: download.response.headers))
                }
            }
            for subscriber in subscribers {
                if case .success(let download) = result {
                    subscriber.progress?(
                        DownloadProgress(
                            receivedBytes: UInt64(download.data.count),
                            expectedBytes: download.response.expectedContentLength))
                }
                subscriber.completion(result)
            }
            pump()
        }
    }
}
