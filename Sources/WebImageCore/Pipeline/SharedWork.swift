import Synchronization

/// What a piece of shared work reports to its subscribers.
enum WorkEvent<Value: Sendable>: Sendable {
    case progress(DownloadProgress)
    /// A partial image of a progressive download.
    case partial(DecodedImage)
    /// Bytes as they arrived, with the count received before them (for progressive decoding).
    case chunk([UInt8], offset: Int)
    /// A value delivered before the end (the cached image of a refresh); the work goes on.
    case intermediate(Value)
    /// The end: a value, nil when the work ended without one (a 304), or the error.
    case finished(Result<Value?, ImageManagerError>)
}

/// One piece of work shared by every subscriber with the same key (Nuke's coalescing task):
/// it runs once, reports to all, follows the highest subscriber priority, and is cancelled
/// when its last subscriber leaves.
final class SharedWork<Value: Sendable>: Sendable {
    typealias Handler = @Sendable (WorkEvent<Value>) -> Void

    /// Read with closures, not key paths: a key path into this generic class's nested type is
    /// instantiated at run time on every use (its generic arguments demangled), which cost
    /// more per image than the rest of the manager's bookkeeping.
    private struct Subscriber {
        let id: Int
        var priority: ImagePriority
        let handler: Handler
    }

    private struct State {
        /// In the order they joined. An array, not a dictionary: `send` hands the handlers out
        /// of the lock as a copy of it, which shares its storage instead of allocating (a work
        /// has one subscriber, or a few, so finding one by its id is a short scan).
        var subscribers: [Subscriber] = []
        var nextID = 0
        var finished = false
        /// True when the work ended because its last subscriber left (not by `.finished`).
        var cancelled = false
        var priority = ImagePriority.low
        var onCancel: (@Sendable () -> Void)?
        var onPriority: (@Sendable (ImagePriority) -> Void)?
        /// The last intermediate value, replayed to late subscribers.
        var intermediate: Value?
        /// Subscribers so far, leavers included.
        var subscriberCount = 0

        /// Ends the work and lets go of what it holds: its handlers (which often hold what
        /// holds this work, such as the stage that finishes it) and the last intermediate
        /// value. They are returned, for the caller to drop after the lock: the last
        /// reference to an object runs its deinit.
        mutating func finish() -> Released {
            finished = true
            subscribers.removeAll()
            defer { (onCancel, onPriority, intermediate) = (nil, nil, nil) }
            return Released(onCancel: onCancel, onPriority: onPriority, intermediate: intermediate)
        }
    }

    /// What a work held until it ended.
    private struct Released: Sendable {
        let onCancel: (@Sendable () -> Void)?
        let onPriority: (@Sendable (ImagePriority) -> Void)?
        let intermediate: Value?
    }

    /// The lock of ``unlockedState``. Not a `TrackedMutex<State>`: this class is generic, and
    /// the deinit of a generic class is never specialized, so destroying a
    /// `TrackedMutex<State>` looked up the metadata of `TrackedMutex<State>`, `Mutex<State>`
    /// and its cell at run time, each a hash-table search (docs/performance.md, run 14). A
    /// lock of a concrete type needs none. The same in `QueuedStage`.
    private let lock = TrackedMutex(())
    /// Read and written only in ``withState(_:)``, under ``lock``.
    nonisolated(unsafe) private var unlockedState = State()

    /// Runs `body` on the state under the lock.
    private func withState<Result>(_ body: (inout State) -> sending Result) -> sending Result {
        lock.withLock { _ in body(&unlockedState) }
    }
    private let unregister: @Sendable (SharedWork<Value>) -> Void

    /// - Parameter unregister: called once when the work ends, to remove it from its registry.
    init(unregister: @escaping @Sendable (SharedWork<Value>) -> Void) {
        self.unregister = unregister
    }

    /// The highest priority of the current subscribers.
    var priority: ImagePriority { withState { $0.priority } }

    /// True once more than one subscriber joined.
    var isShared: Bool { withState { $0.subscriberCount > 1 } }

    /// Sets what cancels the work and what changes its priority. When the last subscriber
    /// left first, `cancel` runs at once; when the work already finished (a transfer that
    /// ended before its starter set the handlers), neither is kept nor run: cancelling then
    /// would undo what the finished value still holds, such as a download's admission lease.
    func setHandlers(
        cancel: (@Sendable () -> Void)?, priority: (@Sendable (ImagePriority) -> Void)? = nil
    ) {
        let cancelNow = withState { state -> Bool in
            guard !state.finished else { return state.cancelled }
            state.onCancel = cancel
            state.onPriority = priority
            return false
        }
        if cancelNow { cancel?() }
    }

    /// Adds a subscriber; nil when the work already finished (start a new one).
    func add(priority: ImagePriority, handler: @escaping Handler) -> Int? {
        let (id, replay, raise) = withState {
            state -> (Int?, Value?, (@Sendable (ImagePriority) -> Void, ImagePriority)?) in
            guard !state.finished else { return (nil, nil, nil) }
            let id = state.nextID
            state.nextID += 1
            state.subscriberCount += 1
            state.subscribers.append(Subscriber(id: id, priority: priority, handler: handler))
            let raise = raisePriority(&state)
            return (id, state.intermediate, raise)
        }
        if let replay { handler(.intermediate(replay)) }
        if let raise { raise.0(raise.1) }
        return id
    }

    /// Recomputes the priority; returns the handler to call when it changed.
    private func raisePriority(_ state: inout State) -> (
        @Sendable (ImagePriority) -> Void, ImagePriority
    )? {
        var highest = ImagePriority.low
        for subscriber in state.subscribers where subscriber.priority > highest { highest = subscriber.priority }
        guard highest != state.priority else { return nil }
        state.priority = highest
        return state.onPriority.map { ($0, highest) }
    }

    /// Changes one subscriber's priority; the work follows the highest.
    func setPriority(_ priority: ImagePriority, of id: Int) {
        let change = withState {
            state -> (@Sendable (ImagePriority) -> Void, ImagePriority)? in
            guard let index = state.subscribers.firstIndex(where: { $0.id == id }) else { return nil }
            state.subscribers[index].priority = priority
            return raisePriority(&state)
        }
        if let change { change.0(change.1) }
    }

    /// Removes a subscriber (it gets no more events); the last one leaving cancels the work.
    func remove(_ id: Int) {
        let (released, change) = withState {
            state -> (Released?, (@Sendable (ImagePriority) -> Void, ImagePriority)?) in
            guard let index = state.subscribers.firstIndex(where: { $0.id == id }), !state.finished else {
                return (nil, nil)
            }
            state.subscribers.remove(at: index)
            guard state.subscribers.isEmpty else { return (nil, raisePriority(&state)) }
            state.cancelled = true
            return (state.finish(), nil)
        }
        let cancel = released?.onCancel
        if let change { change.0(change.1) }
        if let cancel {
            unregister(self)
            cancel()
        }
    }

    /// Reports `event` to every subscriber; `.finished` ends the work (later events are dropped).
    func send(_ event: WorkEvent<Value>) {
        let (subscribers, _) = withState { state -> ([Subscriber], Released?) in
            guard !state.finished else { return ([], nil) }
            if case .finished = event {
                let subscribers = state.subscribers
                return (subscribers, state.finish())
            }
            if case .intermediate(let value) = event { state.intermediate = value }
            return (state.subscribers, nil)
        }
        if case .finished = event { unregister(self) }
        for subscriber in subscribers { subscriber.handler(event) }
    }

    var isFinished: Bool { withState { $0.finished } }
}

/// The shared works of one stage by key (``ImageRequestKeys``): a subscriber joins the running
/// work with its key or starts a new one.
final class WorkRegistry<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// A key with its hash value, computed once: the lookups, the insert, the removal and the
    /// table's growth hash one integer instead of every field of the key (an image key holds
    /// the URL and the cache key twice over, its stages' keys nested). A class: the table, the
    /// work's removal and the lookups each held a copy of the key, and copying a key copies
    /// each of its strings through its type's value witnesses (about ten copies an image,
    /// docs/performance.md, run 14); a reference is one retain.
    private final class HashedKey: Hashable, Sendable {
        let key: Key
        let hash: Int

        init(_ key: Key) {
            self.key = key
            hash = key.hashValue
        }

        static func == (left: HashedKey, right: HashedKey) -> Bool {
            left === right || (left.hash == right.hash && left.key == right.key)
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    private let works = TrackedMutex<[HashedKey: SharedWork<Value>]>([:])

    /// Subscriptions so far: works started plus joins of running ones (what tests wait for
    /// before they let a held stage go on).
    private let subscribed = Atomic<Int>(0)
    var subscribedCount: Int { subscribed.load(ordering: .relaxed) }

    /// Works running now.
    var runningCount: Int { works.withLock { $0.count } }

    /// Joins the work with `key`, or starts one with `start` (called once, outside any lock).
    func subscribe(
        key: Key, priority: ImagePriority, handler: @escaping SharedWork<Value>.Handler,
        start: (SharedWork<Value>) -> Void
    ) -> WorkSubscription<Value> {
        subscribed.add(1, ordering: .relaxed)
        let key = HashedKey(key)
        while true {
            let (work, isNew) = works.withLock { works -> (SharedWork<Value>, Bool) in
                if let work = works[key] { return (work, false) }
                let work = SharedWork<Value> { [weak self] finished in
                    self?.works.withLock { works in
                        if let index = works.index(forKey: key), works.values[index] === finished {
                            works.remove(at: index)
                        }
                    }
                }
                works[key] = work
                return (work, true)
            }
            if isNew {
                // The first subscriber joins before the work starts, so nothing is missed.
                let id = work.add(priority: priority, handler: handler)!
                start(work)
                return WorkSubscription(work: work, id: id)
            }
            if let id = work.add(priority: priority, handler: handler) { return WorkSubscription(work: work, id: id) }
            // It finished between the lookup and the join: try again.
            works.withLock { works in if works[key] === work { works[key] = nil } }
        }
    }

    /// Every running work.
    var all: [SharedWork<Value>] { works.withLock { Array($0.values) } }
}

/// One subscriber's place in a shared work.
struct WorkSubscription<Value: Sendable>: Sendable {
    let work: SharedWork<Value>
    let id: Int

    /// Leaves the work; the last subscriber leaving cancels it.
    func cancel() { work.remove(id) }

    func setPriority(_ priority: ImagePriority) { work.setPriority(priority, of: id) }
}
