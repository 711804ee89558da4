import Dispatch

/// Decodes partial images of one download while its bytes arrive, throttled as Nuke 13
/// does: no partial decode starts while one is running or within the minimum interval of
/// the last. Partial images go to `deliver` and are never cached; none is delivered after
/// ``finish()``.
final class ProgressiveDecoder: Sendable {
    /// The incremental decoder, used by one partial decode at a time (the `decoding` flag).
    private final class DecoderSlot: @unchecked Sendable {
        var decoder: (any IncrementalImageDecoder)?
        /// Bytes already appended to `decoder`.
        var fed = 0
    }

    private struct State {
        var bytes: [UInt8] = []
        var decoding = false
        var finished = false
        /// True when a chunk was missed (the decoder joined late): no partial images then.
        var broken = false
        var lastDecode: ContinuousClock.Instant?
    }

    private let coders: CodersManager
    private let thumbnail: ThumbnailSize?
    private let interval: Duration
    private let counters: PipelineCounters
    private let deliver: @Sendable (DecodedImage) -> Void
    private let state = TrackedMutex(State())
    private let slot = DecoderSlot()

    init(
        coders: CodersManager, thumbnail: ThumbnailSize?, interval: Duration, counters: PipelineCounters,
        deliver: @escaping @Sendable (DecodedImage) -> Void
    ) {
        self.coders = coders
        self.thumbnail = thumbnail
        self.interval = interval
        self.counters = counters
        self.deliver = deliver
    }

    /// Adds the bytes that arrived at `offset`; starts a partial decode when the throttle allows.
    func append(_ chunk: [UInt8], offset: Int) {
        let snapshot = state.withLock { state -> [UInt8]? in
            guard !state.finished, !state.broken else { return nil }
            guard offset == state.bytes.count else {
                state.broken = true
                return nil
            }
            state.bytes += chunk
            let now = ContinuousClock.now
            if state.decoding { return nil }
            if let last = state.lastDecode, now - last < interval { return nil }
            state.decoding = true
            return state.bytes
        }
        guard let snapshot else { return }
        DispatchQueue.global().async { [self] in
            let image = decodePartial(snapshot)
            let send = state.withLock { state -> Bool in
                state.decoding = false
                state.lastDecode = .now
                return !state.finished
            }
            if send, let image { deliver(image) }
        }
    }

    /// No more partial images after this.
    func finish() {
        state.withLock { $0.finished = true }
    }

    private func decodePartial(_ bytes: [UInt8]) -> DecodedImage? {
        do {
            if slot.decoder == nil {
                let coder = try bytes.withUnsafeBytes { try coders.coder(for: $0) }
                guard let progressive = coder as? any ProgressiveImageCoder else { return nil }
                slot.decoder = try progressive.makeIncrementalDecoder(request: DecodeRequest())
                slot.fed = 0
            }
            guard let decoder = slot.decoder, bytes.count > slot.fed else { return nil }
            try bytes[slot.fed...].withUnsafeBytes { try decoder.append($0, isFinal: false) }
            slot.fed = bytes.count
            counters.countPartialDecode()
            guard var image = try decoder.currentImage(), image.isPartial else { return nil }
            if let thumbnail {
                let target = thumbnail.targetSize(sourceWidth: image.width, sourceHeight: image.height)
                if target != (image.width, image.height) {
                    image.pixels = try ImageResizer.resize(image.pixels, width: target.width, height: target.height)
                }
            }
            return image
        } catch {
            return nil
        }
    }
}
