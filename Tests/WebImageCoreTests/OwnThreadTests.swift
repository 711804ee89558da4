import Foundation
import Testing
import WebImageTestSupport

/// ``onOwnThread(_:)`` from the test support: blocking work leaves the shared threads, and what
/// it records stays the calling test's.
@Suite("onOwnThread")
struct OwnThreadTests {
    @Test("the body runs on a thread made for it and sees the calling test")
    func runsOnItsOwnThreadInTheTest() async throws {
        #expect(!isOnOwnThread)
        let seen = try await onOwnThread { (isOnOwnThread, Test.current?.name) }
        #expect(seen.0)
        #expect(seen.1 == "runsOnItsOwnThreadInTheTest()")
    }

    @Test("a failed expectation in the body is recorded against the calling test")
    func issuesBelongToTheCallingTest() async throws {
        // withKnownIssue fails the test when the issue goes to another test or to none.
        await withKnownIssue {
            try await onOwnThread { #expect(1 + 1 == 3) }
        }
    }

    @Test("a value and a thrown error come back to the caller")
    func resultsComeBack() async throws {
        #expect(try await onOwnThread { 42 } == 42)
        await #expect(throws: HarnessError.self) { try await onOwnThread { throw HarnessError("x") } }
    }

    @Test("the .ownThread trait runs a synchronous test on a thread of its own", .ownThread)
    func traitRunsSyncTest() {
        #expect(isOnOwnThread)
        #expect(Test.current?.name == "traitRunsSyncTest()")
    }

    @Test("the .ownThread trait runs an async test on a thread of its own, across suspensions", .ownThread)
    func traitRunsAsyncTest() async throws {
        #expect(isOnOwnThread)
        try await Task.sleep(for: .milliseconds(1))
        #expect(isOnOwnThread)
    }

    @Test("the .ownThread trait gives each case of a parameterized test its own thread", .ownThread, arguments: [1, 2])
    func traitRunsEachCase(_ value: Int) {
        #expect(isOnOwnThread)
    }

    @Test("blocking without the trait is recorded against the test; with it, it passes")
    func blockingOffTheTraitRecorded() async throws {
        withKnownIssue { expectOwnThreadWhenBlocking("a wait") }
        try await onOwnThread { expectOwnThreadWhenBlocking("a wait") }
    }
}
