import Dispatch
import FoundationEssentials
import Synchronization

/// The flow of a plain request run from callbacks, as Nuke runs its tasks, instead of in a task
/// of its own: the cache lookup's answer starts the decode work (which joins its download), and
/// the decode's end stores the original and completes, on the thread where each arrives.
///
/// A task made each plain request stop on the cooperative pool three times (at its start, after
/// the disk lookup and after the decode), each stop waking a pool thread, and carry an async
/// frame, an awaiter and a priority relay. Without them, what the manager adds to fetch, decode
/// and store by hand fell by a fifth in instructions, and by two thirds to three quarters in
/// thread switches and in memory a request in flight (docs/performance.md, the image manager,
/// run 15). The steps
/// and their order are ``ImageManager/flow``'s for the same plan.
extension ImageManager {
    /// True for a request whose flow runs without a task: no transformer, cache serializer,
    /// ``ImageManagerOptions/waitStoreCache``, ``ImageManagerOptions/refreshCached`` or
    /// ``ImageManagerOptions/queryMemoryData``. With ``ImageManagerOptions/revalidateStale``, a
    /// stale disk copy hands the request over to the task's flow, which revalidates it.
    func runsWithoutTask(_ plan: ImageRequestPlan) -> Bool {
        storesOriginalWithoutTask(plan) && !plan.options.contains(.refreshCached)
            && !plan.options.contains(.queryMemoryData)
    }

    /// Runs the flow of `plan` for `work` without a task; it ends with `.finished`.
    func startWithoutTask(_ plan: ImageRequestPlan, work: SharedWork<ImageResult>) {
        let run = RunWithoutTask(work: work, background: background, started: .now)
        defer { run.leaveCaller() }
        guard !plan.options.contains(.fromLoaderOnly), let baseKey = plan.baseKey, let finalKey = plan.finalKey,
            let cache = plan.cache, plan.queryCacheType != .none
        else {
            download(plan, run: run)
            return
        }
        // 1. The caches: memory, then disk, as ``lookup(_:in:lookupKey:memoryKey:spec:type:relay:)``.
        counters.countCacheQuery()
        let type = plan.queryCacheType
        cache.lookUp(
            memoryKey: type.includesMemory ? finalKey : nil, diskKey: type.includesDisk ? baseKey : nil
        ) { [self] found in
            switch found {
            case .memory(let image):
                let hit = CacheHit(
                    payload: DecodedPayload(image: image, animation: nil, frameCount: image.frameCountGuess),
                    data: nil, cacheType: .memory)
                run.end(.success(cachedResult(plan, hit: hit, key: finalKey, started: run.started, isOriginal: true)))
            case .disk(let entry):
                let record = entry.extendedData.flatMap(CacheValidators.init(extendedData:))
                if plan.options.contains(.revalidateStale), !isFresh(record) {
                    // Rare: the task's flow reads the copy again and revalidates it.
                    run.handOver { startTask(plan, work: run.work) }
                } else {
                    decodeCached(entry, record: record, plan: plan, cache: cache, run: run)
                }
            case .miss:
                download(plan, run: run)
            }
        }
    }

    /// A disk hit decoded by the decode work of its key, then kept in memory; bytes no coder
    /// decodes are a miss.
    private func decodeCached(
        _ entry: DiskCacheEntry, record: CacheValidators?, plan: ImageRequestPlan, cache: any ImageCaching,
        run: RunWithoutTask
    ) {
        guard let baseKey = plan.baseKey, let finalKey = plan.finalKey, !run.isCancelled else {
            run.end(.failure(.cancelled))
            return
        }
        let bytes = [UInt8](entry.data)
        let key = plan.cachedDecodeKey(cache: cache, key: baseKey, spec: plan.decode)
        let spec = plan.decode
        let subscription = decodes.subscribe(
            key: key, priority: run.work.priority,
            handler: { [self] event in
                guard case .finished(let result) = event else { return }
                switch result {
                case .success(let payload?):
                    if plan.queryCacheType.includesMemory, let image = payload.image {
                        cache.storeInMemory(image, forKey: finalKey)
                    }
                    let hit = CacheHit(payload: payload, data: entry.data, cacheType: .disk, record: record)
                    run.end(
                        .success(cachedResult(plan, hit: hit, key: finalKey, started: run.started, isOriginal: true)))
                case .failure(let error) where error.kind == .cancelled:
                    run.end(.failure(error))
                case .success(nil), .failure:
                    download(plan, run: run)
                }
            },
            start: { work in startCachedDecode(bytes, spec: spec, plan: plan, work: work) })
        run.follow(subscription)
    }

    /// Steps 2 and 4-8 of the flow: whether to download, then the decode work of the download,
    /// the original stored and the result.
    private func download(_ plan: ImageRequestPlan, run: RunWithoutTask) {
        if plan.options.contains(.fromCacheOnly) {
            run.end(.failure(ImageManagerError(.notInCache, "not in the cache", url: plan.urlString)))
            return
        }
        if let refusal = refusalToDownload(plan) {
            run.end(.failure(refusal))
            return
        }
        guard !run.isCancelled else {
            run.end(.failure(.cancelled))
            return
        }
        let subscription = decodes.subscribe(
            key: plan.decodeKey(validators: nil), priority: run.work.priority,
            handler: { [self] event in
                switch event {
                case .progress(let progress): run.work.send(.progress(progress))
                case .partial(let image): run.work.send(.partial(image))
                case .finished(let result): finishDownload(plan, result: result, run: run)
                case .chunk, .intermediate: break
                }
            }, start: { work in startDecode(plan, validators: nil, work: work) })
        run.follow(subscription)
    }

    private func finishDownload(
        _ plan: ImageRequestPlan, result: Result<DecodedPayload?, ImageManagerError>, run: RunWithoutTask
    ) {
        switch result {
        case .failure(let error):
            if FailedURLList.blocks(error) { failedURLs.insert(plan.urlString) }
            run.end(.failure(error))
        case .success(let output):
            failedURLs.remove(plan.urlString)
            guard let output, let download = output.download else {
                run.end(.success(nil))
                return
            }
            storeOriginalNow(
                plan, payload: DecodedPayload(image: output.image, animation: nil, frameCount: output.frameCount),
                download: download)
            run.end(.success(resultOfDownload(plan, output: output, download: download, started: run.started)))
        }
    }
}

/// One run of a request's flow without a task: it ends its work once, by its result or when
/// its last subscriber leaves (which leaves the stage it waits for), and is counted as
/// background work until then.
final class RunWithoutTask: Sendable {
    let work: SharedWork<ImageResult>
    let started: ContinuousClock.Instant
    private let background: BackgroundWork
    private let ended = Atomic<Bool>(false)
    /// True until the caller's ``ImageManager/startWithoutTask(_:work:)`` returns.
    private let onCaller = Atomic<Bool>(true)

    init(work: SharedWork<ImageResult>, background: BackgroundWork, started: ContinuousClock.Instant) {
        self.work = work
        self.background = background
        self.started = started
        background.begin()
    }

    /// True once the work ended (its last subscriber left).
    var isCancelled: Bool { work.isFinished }

    /// Leaves `subscription` when the work's last subscriber leaves, and passes priority
    /// changes on to it.
    func follow<Value>(_ subscription: WorkSubscription<Value>) {
        work.setHandlers(
            cancel: { [self] in
                subscription.cancel()
                end(.failure(.cancelled))
            }, priority: { subscription.setPriority($0) })
    }

    /// The caller's thread is left: a later end may complete where it is called.
    func leaveCaller() { onCaller.store(false, ordering: .releasing) }

    /// Ends the work with `result` (once; later calls do nothing). An end that comes before
    /// the caller's thread is left (a memory hit, a refusal) is sent from a global queue, as
    /// the manager's other early answers: a completion never runs on the caller's thread.
    func end(_ result: Result<ImageResult?, ImageManagerError>) {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard onCaller.load(ordering: .acquiring) else {
            work.send(.finished(result))
            background.end()
            return
        }
        DispatchQueue.global().async { [self] in
            work.send(.finished(result))
            background.end()
        }
    }

    /// Ends this run without ending the work, which `start` goes on with (a task's flow).
    func handOver(to start: () -> Void) {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        start()
        background.end()
    }
}
