import Synchronization
import Testing

@testable import WebImageCore

/// The bound on downloads not yet decoding: who starts, when, and in which order.
@Suite("DownloadAdmission")
struct DownloadAdmissionTests {
    /// The names of the downloads started so far, in order.
    final class Starts: Sendable {
        private let names = TrackedMutex<[String]>([])
        var all: [String] { names.withLock { $0 } }

        /// A lease for `name`'s download from `host` (default: a host of its own, `http://name`).
        func admit(
            _ name: String, _ admission: DownloadAdmission, priority: ImagePriority = .normal,
            host: String? = nil
        ) -> DownloadLease {
            admission.admit(priority: priority, url: "http://\(host ?? name)/\(name).png") { _ in
                self.names.withLock { $0.append(name) }
            }
        }

        /// Leases for `a`, `b` and `c`, asked in that order.
        func admitABC(_ admission: DownloadAdmission) -> (DownloadLease, DownloadLease, DownloadLease) {
            (admit("a", admission), admit("b", admission), admit("c", admission))
        }
    }

    @Test("at most capacity leases are out; a returned one starts the next waiting, on the returning thread")
    func capacity() {
        let admission = DownloadAdmission(capacity: 2, lastInFirstOut: false)
        let starts = Starts()
        let (a, b, c) = starts.admitABC(admission)
        #expect(starts.all == ["a", "b"])
        #expect(admission.load == (2, 1))
        a.release()
        #expect(starts.all == ["a", "b", "c"])
        a.release()
        #expect(admission.load == (2, 0))
        c.release()
        #expect(admission.load == (1, 0))
        b.release()
        #expect(admission.load == (0, 0))
    }

    @Test("waiting downloads start in batches: once half the places are free, as many as fill them")
    func batches() {
        let admission = DownloadAdmission(capacity: 4, lastInFirstOut: false)
        let starts = Starts()
        let out = (1...4).map { starts.admit("out\($0)", admission) }
        let waiting = (1...5).map { starts.admit("waiting\($0)", admission) }
        #expect(admission.load == (4, 5))
        out[0].release()
        #expect(admission.load == (3, 5))
        out[1].release()
        #expect(starts.all.suffix(2) == ["waiting1", "waiting2"])
        #expect(admission.load == (4, 3))
        let late = starts.admit("late", admission)
        out[2].release()
        #expect(admission.load == (3, 4))
        #expect(!starts.all.contains("late"))
        for lease in [out[3]] + waiting + [late] { lease.release() }
        #expect(admission.load == (0, 0))
    }

    @Test("a waiting lease released never starts and takes no place")
    func withdrawn() {
        let admission = DownloadAdmission(capacity: 1, lastInFirstOut: false)
        let starts = Starts()
        let (a, b, c) = starts.admitABC(admission)
        b.release()
        #expect(admission.load == (1, 1))
        a.release()
        #expect(starts.all == ["a", "c"])
        #expect(admission.load == (1, 0))
        c.release()
    }

    @Test("waiting downloads start by priority, then first in first out, or last in first out")
    func order() {
        for lastInFirstOut in [false, true] {
            let admission = DownloadAdmission(capacity: 1, lastInFirstOut: lastInFirstOut)
            let starts = Starts()
            var leases = ["first": starts.admit("first", admission)]
            leases["low"] = starts.admit("low", admission, priority: .low)
            leases["normal1"] = starts.admit("normal1", admission)
            leases["normal2"] = starts.admit("normal2", admission)
            leases["high"] = starts.admit("high", admission, priority: .high)
            leases["low"]?.setPriority(.high)
            // Each started download's lease returned in turn starts the next.
            while let last = starts.all.last, let lease = leases.removeValue(forKey: last) { lease.release() }
            #expect(
                starts.all
                    == (lastInFirstOut
                        ? ["first", "high", "low", "normal2", "normal1"]
                        : ["first", "low", "high", "normal1", "normal2"]))
        }
    }

    @Test("downloads that return their place as they start are started in a loop, not by nested calls")
    func startsThatEndAtOnce() {
        let admission = DownloadAdmission(capacity: 1, lastInFirstOut: false)
        let depth = Atomic<Int>(0)
        let deepest = Atomic<Int>(0)
        let started = Atomic<Int>(0)
        let first = admission.admit(priority: .normal, url: "http://a/first.png") { _ in }
        let failing = (0..<1_000).map {
            admission.admit(priority: .normal, url: "http://b/\($0).png") { lease in
                let now = depth.add(1, ordering: .relaxed).newValue
                deepest.max(now, ordering: .relaxed)
                started.add(1, ordering: .relaxed)
                lease.release()
                depth.subtract(1, ordering: .relaxed)
            }
        }
        #expect(admission.load == (1, 1_000))
        first.release()
        #expect(started.load(ordering: .relaxed) == 1_000)
        #expect(deepest.load(ordering: .relaxed) == 1)
        #expect(admission.load == (0, 0))
        withExtendedLifetime(failing) {}
    }

    @Test("one host holds at most capacity less a third of the leases; another host's download starts at once")
    func hostShare() {
        let admission = DownloadAdmission(capacity: 6, lastInFirstOut: false)
        let starts = Starts()
        let slow = (1...6).map { starts.admit("slow\($0)", admission, host: "slow.test") }
        #expect(starts.all == ["slow1", "slow2", "slow3", "slow4"])
        let other = starts.admit("other", admission, host: "other.test")
        #expect(starts.all == ["slow1", "slow2", "slow3", "slow4", "other"])
        #expect(admission.load == (5, 2))
        slow[0].release()
        slow[1].release()
        #expect(starts.all == ["slow1", "slow2", "slow3", "slow4", "other", "slow5", "slow6"])
        for lease in slow + [other] { lease.release() }
        #expect(admission.load == (0, 0))
    }

    @Test("an admitted lease dropped without a release gives its place back")
    func droppedLease() async throws {
        let admission = DownloadAdmission(capacity: 1, lastInFirstOut: false)
        let starts = Starts()
        var first: DownloadLease? = starts.admit("first", admission)
        let second = starts.admit("second", admission)
        #expect(first != nil && starts.all == ["first"])
        first = nil
        let deadline = ContinuousClock.now + .seconds(10)
        while starts.all.count < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(starts.all == ["first", "second"])
        #expect(admission.load == (1, 0))
        second.release()
    }
}
