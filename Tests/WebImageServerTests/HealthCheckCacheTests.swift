import Synchronization
import Testing
import WebImageCore

@testable import WebImageServer

/// ``HealthCheckCache``: one check per interval, however many polls.
@Suite("HealthCheckCache")
struct HealthCheckCacheTests {
    /// Counts the checks it runs; each answers with the next status of `statuses`.
    final class CountingCheck: Sendable {
        let statuses: [Int]
        private let count = TrackedMutex(0)

        init(statuses: [Int]) { self.statuses = statuses }

        var checks: Int { count.withLock { $0 } }

        func check() -> ImageServiceResponse {
            let index = count.withLock { count in
                defer { count += 1 }
                return count
            }
            return .error(statuses[min(index, statuses.count - 1)], "check \(index)")
        }
    }

    @Test("polls within the interval reuse the first answer, a failed one too; one check for 100 polls")
    func reusedWithinInterval() async {
        for status in [200, 503] {
            let cache = HealthCheckCache(interval: .seconds(3600))
            let counting = CountingCheck(statuses: [status, 200])
            var answers: [Int] = []
            for _ in 0..<100 { answers.append(await cache.answer { counting.check() }.status) }
            #expect(counting.checks == 1)
            #expect(answers == Array(repeating: status, count: 100))
        }
    }

    @Test("with an interval of 0 every poll checks again and gets the new answer")
    func checkedAgainAfterInterval() async {
        let cache = HealthCheckCache(interval: .zero)
        let counting = CountingCheck(statuses: [503, 200, 200])
        var answers: [Int] = []
        for _ in 0..<3 { answers.append(await cache.answer { counting.check() }.status) }
        #expect(counting.checks == 3)
        #expect(answers == [503, 200, 200])
    }
}
