import CWebImagePlugin

/// The context of one plugin transfer: turns the C callbacks into ``LoadEvent``s. Retained
/// for the plugin at start, released by the completion callback.
final class LoadEventReceiver: Sendable {
    let handler: @Sendable (LoadEvent) -> Void
    /// Takes the body's bytes in place of `.data` events, when set.
    let bodyBytes: (@Sendable (UnsafeRawBufferPointer) -> Void)?

    init(handler: @escaping @Sendable (LoadEvent) -> Void, bodyBytes: (@Sendable (UnsafeRawBufferPointer) -> Void)?) {
        self.handler = handler
        self.bodyBytes = bodyBytes
    }

    static func receiver(_ context: UnsafeMutableRawPointer?) -> LoadEventReceiver {
        Unmanaged<LoadEventReceiver>.fromOpaque(context!).takeUnretainedValue()
    }

    static let onResponse: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<webimage_load_response>) -> Void = {
        context, response in
        let head = response.pointee
        let headers = HTTPHeaders(
            (0..<Int(head.header_count)).map { index in
                let field = head.headers![index]
                return (name: String(cString: field.name), value: String(cString: field.value))
            })
        receiver(context).handler(
            .response(
                LoadResponse(
                    statusCode: Int(head.status_code), headers: headers,
                    httpVersion: LoadRequestMarshalling.httpVersion(head.http_version),
                    url: String(cString: head.effective_url))))
    }

    static let onData: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>, Int) -> Void = {
        context, bytes, size in
        let receiver = receiver(context)
        if let bodyBytes = receiver.bodyBytes {
            bodyBytes(UnsafeRawBufferPointer(start: bytes, count: size))
        } else {
            receiver.handler(.data(Array(UnsafeBufferPointer(start: bytes, count: size))))
        }
    }

    static let onComplete: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<webimage_load_completion>) -> Void =
        { context, completion in
            let receiver = Unmanaged<LoadEventReceiver>.fromOpaque(context!).takeRetainedValue()
            let end = completion.pointee
            if end.status == WEBIMAGE_STATUS_OK {
                receiver.handler(.completed(.success(LoadRequestMarshalling.metrics(end.metrics.pointee))))
            } else {
                let message = String(cString: end.message)
                receiver.handler(
                    .completed(
                        .failure(
                            PluginStatus(end.status).loadingError(
                                message.isEmpty ? "load failed with status \(end.status)" : message,
                                nativeCode: end.native_code))))
            }
        }
}
