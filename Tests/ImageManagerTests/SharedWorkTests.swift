import Synchronization
import Testing

@testable import WebImageCore

/// The shared work of one stage: what its handlers hold is released when it ends, since those
/// handlers often hold what holds the work (the stage that finishes it).
@Suite("SharedWork")
struct SharedWorkTests {
    /// An object whose release a weak reference observes.
    final class Held: Sendable {}

    @Test("a finished work releases its handlers and its last intermediate value")
    func finishedReleasesHandlers() {
        weak var heldByHandlers: Held?
        weak var intermediate: Held?
        let work = SharedWork<Held> { _ in }
        _ = work.add(priority: .normal) { _ in }
        do {
            let held = Held()
            heldByHandlers = held
            work.setHandlers(cancel: { _ = held }, priority: { _ in _ = held })
            let value = Held()
            intermediate = value
            work.send(.intermediate(value))
        }
        #expect(heldByHandlers != nil && intermediate != nil)
        work.send(.finished(.success(nil)))
        #expect(heldByHandlers == nil)
        #expect(intermediate == nil)
        #expect(work.isFinished)
    }

    @Test("the last subscriber leaving cancels the work once and releases its handlers")
    func lastLeaverReleasesHandlers() {
        weak var released: Held?
        let cancels = Atomic<Int>(0)
        let work = SharedWork<Held> { _ in }
        let first = work.add(priority: .normal) { _ in }!
        let second = work.add(priority: .high) { _ in }!
        do {
            let held = Held()
            released = held
            work.setHandlers(cancel: {
                _ = held
                cancels.add(1, ordering: .relaxed)
            })
        }
        work.remove(first)
        #expect(released != nil && cancels.load(ordering: .relaxed) == 0)
        work.remove(second)
        #expect(released == nil)
        #expect(cancels.load(ordering: .relaxed) == 1)
        work.remove(second)
        #expect(cancels.load(ordering: .relaxed) == 1)
    }

    /// How a work ended before its handlers were set.
    enum Ending: String, CaseIterable, Sendable {
        case lastSubscriberLeft
        case finished
    }

    /// A transfer can end on the loader's thread before the code that started it sets the
    /// handlers; cancelling a finished one gave back the download's admission lease while its
    /// bytes still waited for a decoder (issue #24's race). A cancelled one must still cancel.
    @Test(
        "handlers set after the work ended are not kept; the cancel runs at once after a cancel, never after a finish",
        arguments: Ending.allCases)
    func handlersAfterTheEnd(_ ending: Ending) {
        weak var released: Held?
        let cancels = Atomic<Int>(0)
        let work = SharedWork<Held> { _ in }
        let id = work.add(priority: .normal) { _ in }!
        switch ending {
        case .lastSubscriberLeft: work.remove(id)
        case .finished: work.send(.finished(.success(nil)))
        }
        do {
            let held = Held()
            released = held
            work.setHandlers(
                cancel: {
                    _ = held
                    cancels.add(1, ordering: .relaxed)
                }, priority: { _ in _ = held })
        }
        #expect(released == nil)
        #expect(cancels.load(ordering: .relaxed) == (ending == .lastSubscriberLeft ? 1 : 0))
    }
}
