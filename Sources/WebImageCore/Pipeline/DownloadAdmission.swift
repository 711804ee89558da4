import Dispatch
import Synchronization

/// Bounds the downloads a manager has started and not yet handed to a decoder. A download
/// starts while fewer than ``capacity`` leases are out; its lease comes back when its bytes
/// start decoding, or when it ends without bytes to decode. Without the bound, downloads that
/// outrun decoding pile their bytes up in memory: 1,000 prefetched photos of 5 MB each would
/// hold 5 GB until the decoders reach them.
///
/// Waiting downloads start by priority, then in the downloader's order (first in first out,
/// or last in first out), with one host holding at most ``hostShare`` leases, so downloads
/// of other hosts still reach the downloader (and its per-host share of the slots) while one
/// host's downloads stall; in batches: once half the places are free, as many as fill them.
/// Each start wakes the loader's thread, and on a busy machine each wake-up takes a core from
/// a decode; one wake-up per download made the bound cost more CPU than it saved.
final class DownloadAdmission: Sendable {
    private struct Waiter {
        let lease: DownloadLease
        let start: @Sendable (DownloadLease) -> Void
    }

    private struct State {
        var waiting: HostShareQueue<Waiter>
        /// The host of every lease out, by id.
        var admitted: [UInt64: String] = [:]
        /// Leases out by host; a host has none when absent.
        var admittedByHost: [String: Int] = [:]
        /// True while a thread starts waiting downloads; the places returned meanwhile (a
        /// start that fails at once returns its own) are filled by that thread's loop.
        var starting = false

        /// The waiting downloads to start now (marked admitted), when at most `refillLevel`
        /// leases are out and no other thread is starting downloads.
        mutating func takeBatch(capacity: Int, refillLevel: Int, hostShare: Int) -> [Waiter] {
            guard !starting, admitted.count <= refillLevel else { return [] }
            var batch: [Waiter] = []
            while admitted.count < capacity,
                let (waiter, host) = waiting.takeNext(where: { admittedByHost[$0, default: 0] < hostShare })
            {
                admit(waiter.lease.id, host: host)
                batch.append(waiter)
            }
            starting = !batch.isEmpty
            return batch
        }

        func hasRoom(for host: String, capacity: Int, hostShare: Int) -> Bool {
            admitted.count < capacity && admittedByHost[host, default: 0] < hostShare
        }

        mutating func admit(_ id: UInt64, host: String) {
            admitted[id] = host
            admittedByHost[host, default: 0] += 1
        }

        /// Ends lease `id` if it is out; false when it is not.
        mutating func release(_ id: UInt64) -> Bool {
            guard let host = admitted.removeValue(forKey: id) else { return false }
            admittedByHost[host, default: 1] -= 1
            if admittedByHost[host] == 0 { admittedByHost[host] = nil }
            return true
        }
    }

    /// Most leases out at once.
    let capacity: Int
    /// Most leases out at once for one host: ``capacity`` less a third of it
    /// (``HostShareQueue/defaultShare(of:)``).
    let hostShare: Int
    /// Waiting downloads start once at most this many leases are out: `capacity` minus half of it.
    private let refillLevel: Int
    private let state: TrackedMutex<State>
    private let nextID = Atomic<UInt64>(0)

    init(capacity: Int, lastInFirstOut: Bool) {
        self.capacity = max(1, capacity)
        refillLevel = self.capacity - max(1, self.capacity / 2)
        hostShare = HostShareQueue<Void>.defaultShare(of: self.capacity)
        state = TrackedMutex(State(waiting: HostShareQueue(lastInFirstOut: lastInFirstOut)))
    }

    /// Leases out, and leases waiting, now.
    var load: (out: Int, waiting: Int) { state.withLock { ($0.admitted.count, $0.waiting.count) } }

    /// A lease for one download of `url`: `start` runs with it at once on this thread when a
    /// place is free (also one of its host's share) and no download that could start waits,
    /// else on the thread that returns a lease. A waiting lease stays queued until admitted or
    /// released.
    func admit(
        priority: ImagePriority, url: String, start: @escaping @Sendable (DownloadLease) -> Void
    ) -> DownloadLease {
        let lease = DownloadLease(admission: self, id: nextID.add(1, ordering: .relaxed).newValue)
        let host = HostShareQueue<Void>.host(of: url)
        let now = state.withLock { state -> Bool in
            // Waiting downloads go first, unless their hosts are at their share.
            let hostShare = hostShare
            let admittedByHost = state.admittedByHost
            guard state.hasRoom(for: host, capacity: capacity, hostShare: hostShare),
                !state.waiting.hasNext(where: { admittedByHost[$0, default: 0] < hostShare })
            else {
                state.waiting.append(
                    Waiter(lease: lease, start: start), sequence: lease.id, priority: priority, host: host)
                return false
            }
            state.admit(lease.id, host: host)
            return true
        }
        if now { start(lease) }
        return lease
    }

    /// Ends lease `id`: a waiting one never starts; one out makes room for the next waiting.
    /// Downloads are started in a loop, not by nested calls: downloads that fail as they
    /// start (a request modifier refusing every request) return their places at once, and a
    /// long queue of them must not deepen the stack.
    fileprivate func release(_ id: UInt64) {
        var batch = state.withLock { state -> [Waiter] in
            if state.waiting.remove(id) != nil { return [] }
            guard state.release(id) else { return [] }
            return state.takeBatch(capacity: capacity, refillLevel: refillLevel, hostShare: hostShare)
        }
        while !batch.isEmpty {
            for waiter in batch { waiter.start(waiter.lease) }
            batch = state.withLock { state -> [Waiter] in
                state.starting = false
                return state.takeBatch(capacity: capacity, refillLevel: refillLevel, hostShare: hostShare)
            }
        }
    }

    fileprivate func setPriority(_ priority: ImagePriority, of id: UInt64) {
        state.withLock { $0.waiting.setPriority(priority, of: id) }
    }
}

/// One download's place in a ``DownloadAdmission``. Releasing it again does nothing. An
/// admitted lease dropped without a release is released on another thread (its release may
/// start the next download, which must not run wherever the last reference happened to go).
final class DownloadLease: Sendable {
    private let admission: DownloadAdmission
    let id: UInt64
    private let released = Atomic<Bool>(false)

    fileprivate init(admission: DownloadAdmission, id: UInt64) {
        self.admission = admission
        self.id = id
    }

    /// Gives the place back (or leaves the queue, when the download has not started).
    func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        admission.release(id)
    }

    /// Moves a waiting download in the queue.
    func setPriority(_ priority: ImagePriority) { admission.setPriority(priority, of: id) }

    deinit {
        guard !released.load(ordering: .acquiring) else { return }
        let (admission, id) = (admission, id)
        DispatchQueue.global().async { admission.release(id) }
    }
}
