import Foundation
import Synchronization
import Testing
import WebImageCore
import WebImageTestSupport

@testable import WebImageServer

/// ``RequestDeadline``: the value or the work's error when the work ends first, ``RequestDeadline/Expired``
/// when the limit passes first, and nothing of a request kept once it has been answered.
@Suite("RequestDeadline")
struct RequestDeadlineTests {
    /// A weak reference to a request's race, kept by the test.
    final class WeakRace: @unchecked Sendable {
        // @unchecked: set once, inside `run`, before the test reads it.
        weak var race: AnyObject?
    }

    @Test("work that ends first answers, and the request's state is released at once, not when the limit passes")
    func releasedWhenAnswered() async throws {
        var observed: [WeakRace] = []
        for index in 0..<100 {
            let weak = WeakRace()
            let value = try await RequestDeadline.run(within: .seconds(3600)) {
                index * 2
            } observingRace: {
                weak.race = $0
            }
            #expect(value == index * 2)
            observed.append(weak)
        }
        // The timer is cancelled as the answer goes out; the last references go with the work task.
        let deadline = ContinuousClock.now + HangBound.scaled(.seconds(10))
        while observed.contains(where: { $0.race != nil }) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(observed.filter { $0.race != nil }.count == 0)
    }

    @Test("the work's error is thrown as it is")
    func workError() async {
        struct Failure: Error, Equatable {}
        await #expect(throws: Failure()) {
            try await RequestDeadline.run(within: .seconds(3600)) { () async throws -> Int in throw Failure() }
        }
    }

    @Test("a limit that passes first throws Expired and cancels the work")
    func expires() async throws {
        let cancelled = WorkCancelled()
        await #expect(throws: RequestDeadline.Expired.self) {
            try await RequestDeadline.run(within: .milliseconds(50)) { () async throws -> Int in
                await withTaskCancellationHandler {
                    await cancelled.waitUntilCancelled()
                } onCancel: {
                    cancelled.cancel()
                }
                return 0
            }
        }
        let deadline = ContinuousClock.now + HangBound.scaled(.seconds(10))
        while !cancelled.isCancelled && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(cancelled.isCancelled)
    }

    /// Work that waits until it is cancelled.
    final class WorkCancelled: Sendable {
        private let state = TrackedMutex<(cancelled: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

        var isCancelled: Bool { state.withLock { $0.cancelled } }

        func waitUntilCancelled() async {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.cancelled { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }

        func cancel() {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.cancelled = true
                return state.waiter.take()
            }
            waiter?.resume()
        }
    }
}
