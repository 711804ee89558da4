import FoundationEssentials
import Synchronization

/// The shared stages: download, decode, transform. Each is keyed as Nuke keys its tasks, so
/// identical work runs once whoever asks for it.
extension ImageManager {
    /// Where a transform chain's input comes from.
    enum TransformSource: Sendable {
        /// Downloaded (conditionally with validators) and decoded.
        case download(CacheValidators?)
        /// An image already decoded (a cached original), named by the key of its decode.
        case cached(DecodedPayload, key: ImageRequestKeys.Decode)
    }

    // MARK: download

    /// Starts the download work of the plan's URL (once the manager's ``DownloadAdmission``
    /// has room, when it bounds downloads): the downloader's transfer, whose bytes, progress and
    /// end go to the work's subscribers. The bytes carry the admission's lease, which their
    /// decode releases; a download that ends without bytes releases it then, and one cancelled
    /// before it started leaves the admission's queue.
    func startDownload(_ plan: ImageRequestPlan, validators: CacheValidators?, work: SharedWork<DownloadedData>) {
        guard let downloadAdmission else {
            let token = transfer(plan, validators: validators, work: work, lease: nil)
            work.setHandlers(cancel: { token.cancel() }, priority: { token.setPriority($0) })
            return
        }
        let transfer = TokenHolder()
        let lease = downloadAdmission.admit(priority: work.priority, url: plan.urlString) { [self] lease in
            transfer.set(self.transfer(plan, validators: validators, work: work, lease: lease))
        }
        work.setHandlers(
            cancel: {
                lease.release()
                transfer.cancel()
            },
            priority: { priority in
                lease.setPriority(priority)
                transfer.setPriority(priority)
            })
    }

    /// The downloader's transfer of a download work (admitted with `lease` when the manager
    /// bounds its downloads).
    private func transfer(
        _ plan: ImageRequestPlan, validators: CacheValidators?, work: SharedWork<DownloadedData>, lease: DownloadLease?
    ) -> DownloadToken {
        counters.countDownload()
        var request = DownloadRequest(url: plan.urlString, priority: work.priority)
        request.joinsIdenticalRequests = false
        request.options = plan.loadOptions
        request.validators = validators?.downloadValidators
        let received = Atomic<Int>(0)
        let url = plan.urlString
        return plan.downloader.download(
            request,
            events: { event in
                guard case .data(let chunk) = event else { return }
                let offset = received.add(chunk.count, ordering: .relaxed).oldValue
                work.send(.chunk(chunk, offset: offset))
            },
            progress: { work.send(.progress($0)) },
            completion: { result in
                switch result {
                case .success(let download):
                    self.counters.countDownloadedBytes(download.metrics.bytesReceived)
                    work.send(
                        .finished(
                            .success(
                                DownloadedData(
                                    data: download.data, response: download.response, metrics: download.metrics,
                                    lease: lease))))
                case .failure(let error):
                    lease?.release()
                    work.send(.finished(.failure(.load(error, url: url))))
                }
            })
    }

    // MARK: decode

    /// The decoded download: one decode per (download, decode settings); partial images while
    /// it arrives with ``ImageManagerOptions/progressiveLoad``.
    @inline(never)
    func decoded(
        _ plan: ImageRequestPlan, validators: CacheValidators?, relay: PriorityRelay,
        forward: @escaping @Sendable (WorkEvent<DecodedPayload>) -> Void
    ) async throws(ImageManagerError) -> DecodedPayload? {
        try await StageAwaiter.value(
            of: decodes, key: plan.decodeKey(validators: validators), relay: relay, forward: forward
        ) { work in startDecode(plan, validators: validators, work: work) }
    }

    /// Starts the decode work of the plan's download: it joins (or starts) the download and
    /// decodes its bytes on the decode queue.
    func startDecode(_ plan: ImageRequestPlan, validators: CacheValidators?, work: SharedWork<DecodedPayload>) {
        let progressive =
            plan.options.contains(.progressiveLoad) && !plan.decode.avoidDecode
            ? ProgressiveDecoder(
                coders: plan.coders, thumbnail: plan.decode.thumbnail,
                interval: configuration.progressiveDecodeInterval, counters: counters
            ) { work.send(.partial($0)) } : nil
        let url = plan.urlString
        let decode: QueuedStage<DownloadedData>.Job = { download throws(ImageManagerError) in
            var payload = try self.decode(
                download.data, spec: plan.decode, coders: plan.coders, url: url, servedAs: download.response.mimeType)
            payload.download = download
            return payload
        }
        let stage = QueuedStage<DownloadedData>(
            work: work, queue: decodeQueue, progressive: progressive, release: { $0.lease?.release() }, job: decode)
        stage.start(after: downloads, key: plan.downloadKey(validators: validators)) { download in
            startDownload(plan, validators: validators, work: download)
        }
    }

    /// Cached bytes decoded as the key's decode settings say: one decode per key (cache, cache
    /// key, decode settings; ``ImageRequestPlan/cachedDecodeKey(cache:key:spec:)``).
    @inline(never)
    func decodedCachedBytes(
        _ bytes: [UInt8], key: ImageRequestKeys.Decode, plan: ImageRequestPlan, relay: PriorityRelay
    ) async throws(ImageManagerError) -> DecodedPayload? {
        try await StageAwaiter.value(of: decodes, key: key, relay: relay) { work in
            startCachedDecode(bytes, spec: key.spec, plan: plan, work: work)
        }
    }

    /// Starts the decode work of cached bytes: `bytes` decoded as `spec` says on the decode queue.
    func startCachedDecode(
        _ bytes: [UInt8], spec: ImageRequestPlan.DecodeSpec, plan: ImageRequestPlan, work: SharedWork<DecodedPayload>
    ) {
        QueuedStage<[UInt8]>(work: work, queue: decodeQueue) { bytes throws(ImageManagerError) in
            try self.decode(bytes, spec: spec, coders: plan.coders, url: plan.urlString)
        }.start(with: bytes)
    }

    /// Decodes `bytes` as `spec` says (thumbnail and scale-down applied while decoding);
    /// `contentType`, the type a server sent them as, is named when no coder decodes them.
    func decode(
        _ bytes: [UInt8], spec: ImageRequestPlan.DecodeSpec, coders: CodersManager, url: String,
        servedAs contentType: String? = nil
    ) throws(ImageManagerError) -> DecodedPayload {
        guard !spec.avoidDecode else { return DecodedPayload(image: nil, animation: nil, frameCount: 0) }
        counters.countDecode()
        let chosen: CodersManager
        if let coder = spec.coder {
            chosen = CodersManager(logger: coders.logger)
            chosen.register(coder.value)
        } else {
            chosen = coders
        }
        do {
            var options = configuration.decodeOptions
            options.thumbnail = spec.thumbnail
            options.firstFrameOnly = spec.firstFrameOnly
            options.servedContentType = contentType
            if options.thumbnail == nil, let limit = spec.scaleDownPixelLimit {
                let info = try bytes.withUnsafeBytes { try chosen.coder(for: $0, servedAs: contentType).probe($0) }
                options.thumbnail = ImageCache.scaledDown(
                    width: info.orientedWidth, height: info.orientedHeight, limit: limit)
            }
            let outcome = try bytes.withUnsafeBytes { try chosen.decodeOutcome($0, options: options) }
            var image = outcome.image
            var frameCount = 1
            var animation: DecodedAnimation?
            if spec.firstFrameOnly {
                image.traits.remove(.animated)
            } else if outcome.coder.format(named: image.format)?.capabilities.contains(.decodeAnimation) == true {
                // The header the decode probed, else probed now with the coder that decoded.
                let info = try outcome.info ?? bytes.withUnsafeBytes { try outcome.coder.probe($0) }
                frameCount = info.frameCount
                if frameCount > 1 {
                    image.traits.insert(.animated)
                    if spec.preloadAllFrames {
                        let source = try chosen.openAnimation(bytes)
                        animation = DecodedAnimation(
                            frames: try chosen.decodeAllFrames(of: source, options: options),
                            loopCount: source.info.loopCount)
                    }
                }
            }
            return DecodedPayload(image: image, animation: animation, frameCount: frameCount)
        } catch let error as ImageCodingError {
            throw .decode(error, url: url)
        } catch {
            throw .decode(ImageCodingError(.internalError, "\(error)"), url: url)
        }
    }

    // MARK: transform

    /// The image after the first `count` transformers of the chain: one transform per (input,
    /// chain prefix), so `[a, b, c]` waits for (or joins) `[a, b]`.
    @inline(never)
    func transformed(
        _ plan: ImageRequestPlan, count: Int, source: TransformSource, relay: PriorityRelay,
        forward: @escaping @Sendable (WorkEvent<DecodedPayload>) -> Void
    ) async throws(ImageManagerError) -> DecodedPayload? {
        try await StageAwaiter.value(
            of: transforms, key: transformKey(plan, count: count, source: source), relay: relay, forward: forward
        ) { work in startTransform(plan, count: count, source: source, work: work) }
    }

    /// The key of the chain's first `count` transformers over `source`.
    private func transformKey(_ plan: ImageRequestPlan, count: Int, source: TransformSource)
        -> ImageRequestKeys.Transform
    {
        switch source {
        case .download(let validators): plan.transformKey(count, input: plan.decodeKey(validators: validators))
        case .cached(_, let key): plan.transformKey(count, input: key)
        }
    }

    /// Starts the transform work of the chain's first `count` transformers: it joins (or
    /// starts) its input, the chain one shorter or the decode, and runs the last transformer on
    /// the transform queue.
    private func startTransform(
        _ plan: ImageRequestPlan, count: Int, source: TransformSource, work: SharedWork<DecodedPayload>
    ) {
        let transformer = plan.chain[count - 1]
        let stage = QueuedStage<DecodedPayload>(work: work, queue: transformQueue) {
            payload throws(ImageManagerError) in
            try self.transform(payload, with: transformer, plan: plan)
        }
        if count > 1 {
            stage.start(after: transforms, key: transformKey(plan, count: count - 1, source: source)) { input in
                startTransform(plan, count: count - 1, source: source, work: input)
            }
            return
        }
        switch source {
        case .download(let validators):
            stage.start(after: decodes, key: plan.decodeKey(validators: validators)) { input in
                startDecode(plan, validators: validators, work: input)
            }
        case .cached(let payload, _):
            stage.start(with: payload)
        }
    }

    /// `payload` with `transformer` applied to its image (every frame of an animation), or
    /// unchanged when it has no image, or an animated one without
    /// ``ImageManagerOptions/transformAnimatedImage``.
    private func transform(
        _ payload: DecodedPayload, with transformer: any ImageTransformer, plan: ImageRequestPlan
    ) throws(ImageManagerError) -> DecodedPayload {
        guard let image = payload.image,
            !image.traits.contains(.animated) || plan.options.contains(.transformAnimatedImage)
        else { return payload }
        counters.countTransform()
        let animation = payload.animation
        let frameCount = max(payload.frameCount, animation?.frames.count ?? 0)
        let limits = configuration.transformLimits
        var output = payload
        do {
            // An animation is transformed frame by frame: all of its frames count.
            if image.traits.contains(.animated) && frameCount > 1 {
                try transformer.checkAnimation(
                    frameCount: frameCount, width: image.width, height: image.height, format: image.pixels.format,
                    limits: limits)
            }
            output.image = try transformer.transform(image, limits: limits)
            output.animation = try animation.map { try transformer.transformEveryFrame(of: $0, limits: limits) }
        } catch let error as ImageTransformError {
            throw .transform(error, url: plan.urlString)
        } catch {
            throw .transform(ImageTransformError(.internalError, "\(error)"), url: plan.urlString)
        }
        if output.original == nil { output.original = image }
        output.transformed = true
        return output
    }
}
