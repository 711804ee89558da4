import Dispatch
import Foundation
import WebImageCore

/// An in-process ``ImageLoader`` serving files from memory under `gated://origin/NAME`, whose
/// transfers hold their bytes until the test opens the file's gate (Nuke's `MockDataLoader`):
/// coalescing, priority and cancellation tests then wait for states, not for a throttled server.
///
/// A transfer of an open file sends its response, its bytes in one chunk and its end at once;
/// one of a closed file sends nothing until ``open(_:)``, or ends with
/// ``ImageLoadingError/Kind/cancelled`` when cancelled first. A name with no file is a 404.
/// Events arrive on the loader's own serial queue, as the protocol asks.
public final class GatedImageLoader: ImageLoader {
    public let schemes = ["gated"]

    private struct Transfer {
        let name: String
        let handler: @Sendable (LoadEvent) -> Void
    }

    private struct State {
        var open: Set<String> = []
        var waiting: [Int: Transfer] = [:]
        var nextID = 0
        var startOrder: [String] = []
        var cancelled: [String] = []
    }

    private let files: [String: [UInt8]]
    private let state = TrackedMutex(State())
    private let events = DispatchQueue(label: "webimage.test.gated-loader")

    /// - Parameters:
    ///   - files: the bytes served, by name.
    ///   - open: the names whose gates are open from the start; default none.
    public init(files: [String: [UInt8]], open: Set<String> = []) {
        self.files = files
        state.withLock { $0.open = open }
    }

    /// `gated://origin/NAME`.
    public static func url(_ name: String) -> URL { URL(string: "gated://origin/\(name)")! }

    /// The names of the transfers started so far, in the order they started.
    public var startOrder: [String] { state.withLock { $0.startOrder } }

    /// How many transfers of `name` started.
    public func starts(of name: String) -> Int { state.withLock { $0.startOrder.count { $0 == name } } }

    /// How many transfers of `name` were cancelled before their gate opened.
    public func cancellations(of name: String) -> Int { state.withLock { $0.cancelled.count { $0 == name } } }

    /// Transfers waiting at a gate now.
    public var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Opens the gate of `name`: its waiting transfers, and every later one, send their bytes.
    public func open(_ name: String) {
        let released = state.withLock { state -> [Transfer] in
            state.open.insert(name)
            let ids = state.waiting.filter { $0.value.name == name }.keys
            return ids.compactMap { state.waiting.removeValue(forKey: $0) }
        }
        for transfer in released { deliver(transfer) }
    }

    /// The bound of every wait for a state (times ``HangBound/scale``): 5 minutes, a bound for
    /// a hang, not a timing check. In a full run Swift Testing starts the async tests together
    /// (CI's log: 153 in progress at once on two cores, each taking 90-155 s of wall time), so
    /// 100 requests' tasks were once seen not all started after 60 s.
    public static let waitBound = Duration.seconds(300)

    /// Opens every file's gate (``open(_:)``): the loader then serves as a server would.
    public func openAll() {
        for name in files.keys { open(name) }
    }

    /// Waits until `count` transfers of `name` started (or, with no name, of any file), within
    /// ``waitBound``; true when they did.
    public func waitForStarts(_ count: Int, of name: String? = nil) async -> Bool {
        await wait { (name.map { self.starts(of: $0) } ?? self.startOrder.count) >= count }
    }

    /// Waits until `count` transfers of `name` were cancelled at their gate, within
    /// ``waitBound``; true when they were.
    public func waitForCancellations(_ count: Int, of name: String) async -> Bool {
        await wait { self.cancellations(of: name) >= count }
    }

    private func wait(until condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + HangBound.scaled(Self.waitBound)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    public func start(_ request: LoadRequest, handler: @escaping @Sendable (LoadEvent) -> Void)
        throws(ImageLoadingError) -> any LoadTask
    {
        guard let url = URL(string: request.url), url.scheme == "gated" else {
            throw ImageLoadingError(.invalidURL, "not a gated:// URL: \(request.url)")
        }
        let name = String(url.path.dropFirst())
        let transfer = Transfer(name: name, handler: handler)
        let id = state.withLock { state -> Int? in
            state.startOrder.append(name)
            guard !state.open.contains(name) else { return nil }
            state.nextID += 1
            state.waiting[state.nextID] = transfer
            return state.nextID
        }
        guard let id else {
            deliver(transfer)
            return GatedLoadTask {}
        }
        return GatedLoadTask { [weak self] in self?.cancel(id) }
    }

    private func cancel(_ id: Int) {
        let transfer = state.withLock { state -> Transfer? in
            guard let transfer = state.waiting.removeValue(forKey: id) else { return nil }
            state.cancelled.append(transfer.name)
            return transfer
        }
        guard let transfer else { return }
        events.async { transfer.handler(.completed(.failure(ImageLoadingError(.cancelled, "cancelled")))) }
    }

    private func deliver(_ transfer: Transfer) {
        let url = Self.url(transfer.name).absoluteString
        guard let bytes = files[transfer.name] else {
            events.async {
                transfer.handler(.response(LoadResponse(statusCode: 404, headers: [:], httpVersion: "1.1", url: url)))
                transfer.handler(.completed(.success(LoadMetrics(httpVersion: "1.1"))))
            }
            return
        }
        let headers: HTTPHeaders = ["Content-Length": "\(bytes.count)", "Content-Type": Self.mimeType(transfer.name)]
        events.async {
            transfer.handler(.response(LoadResponse(statusCode: 200, headers: headers, httpVersion: "1.1", url: url)))
            transfer.handler(.data(bytes))
            var metrics = LoadMetrics(httpVersion: "1.1")
            metrics.bytesReceived = UInt64(bytes.count)
            transfer.handler(.completed(.success(metrics)))
        }
    }

    private static func mimeType(_ name: String) -> String {
        switch (name as NSString).pathExtension {
        case "jpg": "image/jpeg"
        case "png": "image/png"
        case "gif": "image/gif"
        default: "application/octet-stream"
        }
    }
}

/// A transfer of ``GatedImageLoader``; cancelling it ends a transfer still at its gate.
final class GatedLoadTask: LoadTask {
    private let onCancel: @Sendable () -> Void

    init(onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }

    func cancel() { onCancel() }
}
