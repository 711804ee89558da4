import CWebImagePlugin

/// A loader plugin's `webimage_loader` table as an ``ImageLoader``.
public final class PluginLoader: ImageLoader, @unchecked Sendable {
    // @unchecked: `table` points at the plugin's immutable table, which lives as long as
    // the process (plugins are never unloaded); its functions may be called from any thread.
    let table: UnsafePointer<webimage_loader>
    /// The manifest name of the plugin.
    public let pluginName: String
    public let schemes: [String]

    /// Wraps `table`, reading only the fields its `struct_size` covers.
    /// - Throws: a description of what is wrong with the table.
    init(table: UnsafePointer<webimage_loader>, pluginName: String) throws(PluginLoaderTableError) {
        guard table.pointee.struct_size >= UInt32(MemoryLayout<webimage_loader>.size) else {
            throw PluginLoaderTableError(
                "struct_size \(table.pointee.struct_size) is smaller than the \(MemoryLayout<webimage_loader>.size) bytes of ABI 1"
            )
        }
        self.table = table
        self.pluginName = pluginName
        self.schemes = (0..<Int(table.pointee.scheme_count)).map { index in
            String(cString: table.pointee.schemes[index])
        }
    }

    public func start(_ request: LoadRequest, handler: @escaping @Sendable (LoadEvent) -> Void)
        throws(ImageLoadingError) -> any LoadTask
    {
        try start(request, handler: handler, bodyBytes: nil)
    }

    /// ``start(_:handler:)``, with the body's bytes given to `bodyBytes` where the plugin
    /// holds them, instead of as `.data` arrays: the ``ImageDownloader`` appends them to the
    /// body itself and makes a chunk only for callers that asked for chunks, which saves a
    /// copy of every body. The bytes are valid only during the call.
    func start(
        _ request: LoadRequest, handler: @escaping @Sendable (LoadEvent) -> Void,
        bodyBytes: (@Sendable (UnsafeRawBufferPointer) -> Void)?
    ) throws(ImageLoadingError) -> any LoadTask {
        guard serves(request.url) else {
            throw ImageLoadingError(
                .invalidURL, "the \(pluginName) loader serves no scheme of '\(URLText.abbreviated(request.url))'")
        }
        let receiver = LoadEventReceiver(handler: handler, bodyBytes: bodyBytes)
        let context = Unmanaged.passRetained(receiver).toOpaque()
        var callbacks = webimage_load_callbacks(
            struct_size: UInt32(MemoryLayout<webimage_load_callbacks>.size), reserved: 0, context: context,
            on_response: LoadEventReceiver.onResponse, on_data: LoadEventReceiver.onData,
            on_complete: LoadEventReceiver.onComplete)
        let errorBuffer = ErrorMessageBuffer()
        var task: OpaquePointer?
        let status = LoadRequestMarshalling.withCRequest(request) { cRequest in
            errorBuffer.withError { error in table.pointee.start(cRequest, &callbacks, &task, error) }
        }
        guard status == WEBIMAGE_STATUS_OK, let task else {
            Unmanaged<LoadEventReceiver>.fromOpaque(context).release()
            throw PluginStatus(status).loadingError(errorBuffer.message(or: "start failed with status \(status)"))
        }
        return PluginLoadTask(table: table, task: task)
    }

    /// Cancels every transfer of the plugin and stops its I/O thread; a later start
    /// starts it again. Not from inside an event handler.
    public func shutdown() {
        table.pointee.shutdown()
    }
}

/// Why a loader table cannot be used.
struct PluginLoaderTableError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A transfer started through a ``PluginLoader``; releases the plugin's task when dropped.
final class PluginLoadTask: LoadTask, @unchecked Sendable {
    // @unchecked: the plugin's cancel is thread-safe and idempotent until release, which
    // runs once, in deinit, when no other reference can call cancel.
    private let table: UnsafePointer<webimage_loader>
    private let task: OpaquePointer

    init(table: UnsafePointer<webimage_loader>, task: OpaquePointer) {
        self.table = table
        self.task = task
    }

    func cancel() {
        table.pointee.cancel(task)
    }

    deinit {
        table.pointee.release(task)
    }
}

extension PluginLoader {
    /// Wraps a loader table linked into this process (a plugin's logic target in its tests,
    /// or an app that links a loader statically) without a manifest.
    /// - Throws: ``PluginFault`` `.descriptorMismatch` when the table is invalid.
    public static func wrapping(_ table: UnsafePointer<webimage_loader>, pluginName: String) throws(PluginFault)
        -> PluginLoader
    {
        do {
            return try PluginLoader(table: table, pluginName: pluginName)
        } catch {
            throw PluginFault(.descriptorMismatch, file: "(linked)", plugin: pluginName, detail: "\(error)")
        }
    }
}
