import Dispatch
import Foundation
import Synchronization
import Testing
import WebImageTestSupport

@testable import WebImageCore

/// The decode and transform queues, seen from inside: how wide they run and in which order
/// queued work starts when subscribers with another priority join or leave. Every step waits
/// for a state of the queue (work held by a gate, nothing timed).
@Suite("ImageManager stage queues: width and priority", .serialized, .ownThread)
struct ImageManagerPriorityTests {
    /// Holds every call until ``open()``; records the calls in the order they started.
    final class Gate: Sendable {
        private struct State {
            var order: [String] = []
            var running = 0
            var most = 0
        }
        private let state = TrackedMutex(State())
        private let semaphore = DispatchSemaphore(value: 0)

        /// Names in the order the calls started.
        var order: [String] { state.withLock { $0.order } }
        var running: Int { state.withLock { $0.running } }
        /// Most calls running at once so far.
        var most: Int { state.withLock { $0.most } }

        /// Lets every held call and every later call through.
        func open() { semaphore.signal() }

        /// Records `name`, waits for the gate (at most a minute, scaled by ``HangBound``, a bound for a loaded machine),
        /// then returns whether it opened.
        func pass(_ name: String) -> Bool {
            state.withLock { state in
                state.order.append(name)
                state.running += 1
                state.most = max(state.most, state.running)
            }
            defer { state.withLock { $0.running -= 1 } }
            guard semaphore.wait(timeout: .now() + 60 * HangBound.scale) == .success else { return false }
            semaphore.signal()
            return true
        }
    }

    /// Decodes anything as a 4×4 image once its gate opens; names the bytes by the served file.
    final class GateCoder: ImageCoder {
        let gate = Gate()
        let names: [[UInt8]: String]

        init(images: [String: [UInt8]]) {
            names = Dictionary(images.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        }

        var formats: [ImageFormat] { [ImageFormat(name: "gated", mimeType: "image/x-gated", capabilities: .decode)] }
        func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool { true }
        func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo {
            ImageInfo(format: "gated", width: 4, height: 4)
        }
        func decode(_ bytes: UnsafeRawBufferPointer, request: DecodeRequest) throws -> DecodedImage {
            guard gate.pass(names[[UInt8](bytes)] ?? "?") else {
                throw ImageCodingError(.internalError, "the gate never opened")
            }
            return DecodedImage(pixels: try PixelBuffer(width: 4, height: 4, format: .rgba8), format: "gated")
        }
        func encode(_ image: PixelBuffer, request: EncodeRequest) throws -> EncodedImageData {
            throw ImageCodingError(.unsupportedOperation, "no")
        }
    }

    /// Returns its input once its gate opens; names images by their size.
    struct GateTransformer: ImageTransformer {
        let gate: Gate
        var transformerKey: String { "Gate" }
        func transform(_ image: PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
            guard gate.pass("\(image.width)x\(image.height)") else {
                throw ImageTransformError(.internalError, "the gate never opened")
            }
            return image
        }
    }

    /// Waits until `condition` holds (at most 5 minutes: a bound for a hang, not a timing
    /// check). The manager's tasks run on the threads every test of the process shares (one per
    /// core on Linux), which other suites' blocking tests can hold for a minute or more in a
    /// full run on two cores (seen: 6 downloads started, none sent, for 60 s); the bound is
    /// longer than the whole run. `state` describes what was seen instead, for the failure message.
    static func waitUntil(_ condition: () -> Bool, state: () -> String = { "" }) async throws {
        let deadline = ContinuousClock.now + HangBound.scaled(.seconds(300))
        while !condition() {
            guard ContinuousClock.now < deadline else {
                throw HarnessError("the queue never reached the state waited for \(state())")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    static let low: ImageManagerOptions = [.lowPriority, .fromLoaderOnly]
    static let high: ImageManagerOptions = [.highPriority, .fromLoaderOnly]

    /// A manager that decodes `width` images at once (with at most `awaitingDecode` downloads
    /// not decoding yet; nil: the default), and a context that decodes with a new ``GateCoder``.
    static func gatedDecoding(width: Int, awaitingDecode: Int? = nil) throws -> (
        harness: GatedHarness, coder: GateCoder, context: ImageContext
    ) {
        var configuration = ImageManagerConfiguration()
        configuration.maxConcurrentDecodes = width
        configuration.maxDownloadsAwaitingDecode = awaitingDecode
        let harness = try GatedHarness(configuration: configuration)
        harness.loader.openAll()
        let coder = GateCoder(images: harness.images)
        var context = ImageContext()
        context.coder = coder
        return (harness, coder, context)
    }

    @Test("decoding is as wide as configured: that many decodes run at once and the others wait", arguments: [1, 3])
    func decodeWidth(width: Int) async throws {
        let (harness, coder, context) = try Self.gatedDecoding(width: width)
        let manager = harness.manager
        let names = ["photo.jpg", "other.jpg", "icon.png", "wide.png", "anim.gif", "reversed.bin"]
        let recorders = names.map { _ in Recorder() }
        for (name, recorder) in zip(names, recorders) {
            manager.load(harness.url(name), options: .fromLoaderOnly, context: context, completed: recorder.completed)
        }
        // Every download done and its decode queued: `width` run (held by the gate), the rest
        // wait. The queue counts a job as running when it hands it to a thread, a moment before
        // the job reaches the gate, so both are waited for.
        try await Self.waitUntil {
            manager.decodeQueue.load == (width, names.count - width) && coder.gate.running == width
        } state: {
            "(decode queue \(manager.decodeQueue.load), downloads \(manager.counters.downloads), "
                + "transfers started \(harness.loader.startOrder.count), "
                + "decodes started \(coder.gate.order), completed \(recorders.map { $0.completions.map { String(describing: $0.errorKind) } }))"
        }
        #expect(coder.gate.running == width && coder.gate.order.count == width)
        coder.gate.open()
        for recorder in recorders { #expect(await recorder.wait(for: 1).first?.value?.image?.width == 4) }
        #expect(coder.gate.most == width && Set(coder.gate.order) == Set(names))
        #expect(manager.counters.decodes == names.count)
    }

    @Test("the default decode width is the number of cores")
    func defaultDecodeWidth() throws {
        let cores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #expect(ImageManagerConfiguration().maxConcurrentDecodes == cores)
        let harness = try GatedHarness()
        #expect(harness.manager.decodeQueue.width == cores)
    }

    @Test("a queued decode takes the priority of a high-priority subscriber that joins, and drops it when it leaves")
    func queuedDecodeFollowsSubscribers() async throws {
        let gated = try Self.gatedDecoding(width: 1)
        let harness = gated.harness

        // Joining: photo holds the one slot; other, icon, wide queue at low priority; a
        // high-priority request for wide joins its work, so wide decodes next.
        let manager = harness.manager
        let coder = gated.coder
        var context = gated.context
        var recorders: [Recorder] = []
        func load(_ name: String, _ options: ImageManagerOptions, into manager: ImageManager) -> ImageOperation {
            let recorder = Recorder()
            recorders.append(recorder)
            return manager.load(harness.url(name), options: options, context: context, completed: recorder.completed)
        }
        _ = load("photo.jpg", Self.low, into: manager)
        try await Self.waitUntil { coder.gate.running == 1 }
        for name in ["other.jpg", "icon.png", "wide.png"] {
            _ = load(name, Self.low, into: manager)
            // One at a time, so the queue's order of arrival is known.
            let queued = recorders.count - 1
            try await Self.waitUntil { manager.decodeQueue.load == (1, queued) }
        }
        _ = load("wide.png", Self.high, into: manager)
        // The join raises wide's queued decode on the request's own task: wait for it before
        // photo's decode ends and the queue picks the next.
        try await Self.waitUntil { manager.decodeQueue.nextPriority == .high }
        coder.gate.open()
        for recorder in recorders { #expect(await recorder.wait(for: 1).first?.value != nil) }
        #expect(coder.gate.order == ["photo.jpg", "wide.png", "other.jpg", "icon.png"])
        #expect(manager.counters.decodes == 4)
        #expect(harness.loader.starts(of: "wide.png") == 1)

        // Leaving: icon is queued at high priority with a low subscriber too; the
        // high-priority request leaves before photo's decode ends, so icon waits its turn.
        let other = try harness.makeManager(configuration: harness.manager.configuration)
        let second = GateCoder(images: harness.images)
        context.coder = second
        recorders = []
        _ = load("photo.jpg", Self.low, into: other)
        try await Self.waitUntil { second.gate.running == 1 }
        _ = load("other.jpg", Self.low, into: other)
        try await Self.waitUntil { other.decodeQueue.load == (1, 1) }
        let leaving = load("icon.png", Self.high, into: other)
        try await Self.waitUntil { other.decodeQueue.load == (1, 2) }
        _ = load("icon.png", Self.low, into: other)
        _ = load("wide.png", Self.low, into: other)
        try await Self.waitUntil { other.decodeQueue.load == (1, 3) }
        leaving.cancel()
        // icon keeps its low subscriber: its queued decode drops back to low.
        try await Self.waitUntil { other.decodeQueue.nextPriority == .low }
        second.gate.open()
        for recorder in recorders { #expect(await recorder.wait(for: 1).count == 1) }
        #expect(recorders[2].completions.first?.errorKind == .cancelled)
        #expect(recorders[3].completions.first?.value != nil)
        #expect(second.gate.order == ["photo.jpg", "other.jpg", "icon.png", "wide.png"])
        #expect(other.counters.decodes == 4)
    }

    @Test("a decode still queued when its last request leaves is removed: it never runs, the others do")
    func queuedDecodeLeftByItsRequestNeverRuns() async throws {
        let (harness, coder, context) = try Self.gatedDecoding(width: 1)
        let manager = harness.manager
        let held = Recorder()
        let leaving = Recorder()
        let after = Recorder()
        manager.load(harness.url("photo.jpg"), options: Self.low, context: context, completed: held.completed)
        try await Self.waitUntil { coder.gate.running == 1 }
        let operation = manager.load(
            harness.url("other.jpg"), options: Self.low, context: context, completed: leaving.completed)
        try await Self.waitUntil { manager.decodeQueue.load == (1, 1) }
        manager.load(harness.url("icon.png"), options: Self.low, context: context, completed: after.completed)
        try await Self.waitUntil { manager.decodeQueue.load == (1, 2) }
        operation.cancel()
        #expect(await leaving.wait(for: 1).first?.errorKind == .cancelled)
        #expect(manager.decodeQueue.load == (1, 1))
        coder.gate.open()
        #expect(await held.wait(for: 1).first?.value?.image?.width == 4)
        #expect(await after.wait(for: 1).first?.value?.image?.width == 4)
        await manager.waitUntilIdle()
        #expect(coder.gate.order == ["photo.jpg", "icon.png"])
        #expect(manager.counters.decodes == 2)
        #expect(manager.counters.downloads == 3)
    }

    @Test("without maxDownloadsAwaitingDecode (the default) downloads do not wait for decoders")
    func downloadsUnboundedByDefault() async throws {
        #expect(ImageManagerConfiguration().maxDownloadsAwaitingDecode == nil)
        let (harness, coder, context) = try Self.gatedDecoding(width: 1)
        let manager = harness.manager
        #expect(manager.downloadAdmission == nil)
        let names = ["photo.jpg", "other.jpg", "icon.png", "wide.png"]
        let recorders = names.map { _ in Recorder() }
        for (name, recorder) in zip(names, recorders) {
            manager.load(harness.url(name), options: .fromLoaderOnly, context: context, completed: recorder.completed)
        }
        try await Self.waitUntil { manager.decodeQueue.load == (1, 3) && coder.gate.running == 1 }
        #expect(manager.counters.downloads == 4)
        coder.gate.open()
        for recorder in recorders { #expect(await recorder.wait(for: 1).first?.value?.image?.width == 4) }
    }

    @Test(
        "downloads wait while their bytes would wait for a decoder: with decoding held, 2 awaiting + 1 decoding started"
    )
    func downloadsWaitForDecoders() async throws {
        // Three places, of which the harness's one host holds two (the capacity less a third).
        let (harness, coder, context) = try Self.gatedDecoding(width: 1, awaitingDecode: 3)
        let manager = harness.manager
        let admission = try #require(manager.downloadAdmission)
        let names = ["photo.jpg", "other.jpg", "icon.png", "wide.png", "anim.gif", "reversed.bin"]
        let recorders = names.map { _ in Recorder() }
        for (name, recorder) in zip(names, recorders) {
            manager.load(harness.url(name), options: .fromLoaderOnly, context: context, completed: recorder.completed)
        }
        // One decode runs (held), having given its place back; two downloads are done and
        // queued for the decoder, holding the host's two places; three wait to start.
        try await Self.waitUntil {
            manager.decodeQueue.load == (1, 2) && admission.load == (2, 3)
        } state: {
            "(decode queue \(manager.decodeQueue.load), admission \(admission.load))"
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(manager.counters.downloads == 3)
        #expect(admission.load == (2, 3))
        let requested = names.filter { harness.loader.starts(of: $0) > 0 }
        #expect(requested.count == 3 && requested.contains(coder.gate.order[0]))
        coder.gate.open()
        for recorder in recorders { #expect(await recorder.wait(for: 1).first?.value?.image?.width == 4) }
        await manager.waitUntilIdle()
        #expect(manager.counters.downloads == names.count && manager.counters.decodes == names.count)
        #expect(admission.load == (0, 0))
        #expect(names.allSatisfy { harness.loader.starts(of: $0) == 1 })
    }

    @Test("a queued transform takes the priority of a high-priority subscriber that joins, and drops it when it leaves")
    func queuedTransformFollowsSubscribers() async throws {
        var configuration = ImageManagerConfiguration()
        configuration.maxConcurrentTransforms = 1
        let harness = try GatedHarness(configuration: configuration)
        harness.loader.openAll()
        let gate = Gate()
        var context = ImageContext()
        context.transformer = GateTransformer(gate: gate)
        var recorders: [Recorder] = []
        func load(_ name: String, _ options: ImageManagerOptions, into manager: ImageManager) -> ImageOperation {
            let recorder = Recorder()
            recorders.append(recorder)
            return manager.load(harness.url(name), options: options, context: context, completed: recorder.completed)
        }
        let manager = harness.manager
        _ = load("photo.jpg", Self.low, into: manager)
        try await Self.waitUntil { gate.running == 1 }
        for name in ["other.jpg", "icon.png", "wide.png"] {
            _ = load(name, Self.low, into: manager)
            let queued = recorders.count - 1
            try await Self.waitUntil { manager.transformQueue.load == (1, queued) }
        }
        _ = load("wide.png", Self.high, into: manager)
        // As for decodes: the join raises wide's queued transform on the request's own task.
        try await Self.waitUntil { manager.transformQueue.nextPriority == .high }
        gate.open()
        for recorder in recorders { #expect(await recorder.wait(for: 1).first?.value != nil) }
        #expect(gate.order == ["640x480", "200x100", "320x200", "64x48"])
        #expect(manager.counters.transforms == 4)

        let other = try harness.makeManager(configuration: configuration)
        let second = Gate()
        context.transformer = GateTransformer(gate: second)
        recorders = []
        _ = load("photo.jpg", Self.low, into: other)
        try await Self.waitUntil { second.running == 1 }
        _ = load("other.jpg", Self.low, into: other)
        try await Self.waitUntil { other.transformQueue.load == (1, 1) }
        let leaving = load("icon.png", Self.high, into: other)
        try await Self.waitUntil { other.transformQueue.load == (1, 2) }
        _ = load("icon.png", Self.low, into: other)
        _ = load("wide.png", Self.low, into: other)
        try await Self.waitUntil { other.transformQueue.load == (1, 3) }
        leaving.cancel()
        try await Self.waitUntil { other.transformQueue.nextPriority == .low }
        second.open()
        for recorder in recorders { #expect(await recorder.wait(for: 1).count == 1) }
        #expect(recorders[3].completions.first?.value != nil)
        #expect(second.order == ["640x480", "320x200", "64x48", "200x100"])
        #expect(other.counters.transforms == 4)
    }
}
