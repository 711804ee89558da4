import Testing

@testable import WebImageCore

/// The order waiting jobs start in: priority first, then arrival (FIFO or LIFO), through
/// priority changes and removals, and with many jobs.
@Suite("StartOrderQueue") struct StartOrderQueueTests {
    /// Takes every job, in the order they start.
    private func drain(_ queue: inout StartOrderQueue<String>) -> [String] {
        var order: [String] = []
        while let next = queue.takeNext() { order.append(next) }
        return order
    }

    /// a(normal) b(low) c(high) d(normal) e(high), sequences 1-5.
    private func fiveJobs(lastInFirstOut: Bool) -> StartOrderQueue<String> {
        var queue = StartOrderQueue<String>(lastInFirstOut: lastInFirstOut)
        for (sequence, (name, priority)) in [
            ("a", ImagePriority.normal), ("b", .low), ("c", .high), ("d", .normal), ("e", .high),
        ].enumerated() {
            queue.append(name, sequence: UInt64(sequence + 1), priority: priority)
        }
        return queue
    }

    @Test("highest priority first, then the oldest (FIFO) or the newest (LIFO)")
    func priorityThenArrival() {
        var fifo = fiveJobs(lastInFirstOut: false)
        #expect(fifo.count == 5)
        #expect(drain(&fifo) == ["c", "e", "a", "d", "b"])
        #expect(fifo.isEmpty && fifo.count == 0)
        var lifo = fiveJobs(lastInFirstOut: true)
        #expect(drain(&lifo) == ["e", "c", "d", "a", "b"])
    }

    @Test("a priority change keeps the job's place of arrival among its new peers")
    func priorityChange() {
        var queue = fiveJobs(lastInFirstOut: false)
        queue.setPriority(.high, of: 4)
        queue.setPriority(.high, of: 1)
        queue.setPriority(.normal, of: 3)
        #expect(queue.priority(of: 1) == .high && queue.priority(of: 3) == .normal)
        #expect(drain(&queue) == ["a", "d", "e", "c", "b"])
        var lifo = fiveJobs(lastInFirstOut: true)
        lifo.setPriority(.high, of: 4)
        lifo.setPriority(.low, of: 5)
        #expect(drain(&lifo) == ["d", "c", "a", "e", "b"])
    }

    @Test("removed jobs never start; removing or changing a job that is not waiting does nothing")
    func removal() {
        var queue = fiveJobs(lastInFirstOut: false)
        #expect(queue.remove(3) == "c")
        #expect(queue.remove(3) == nil)
        #expect(queue.takeNext() == "e")
        #expect(queue.remove(5) == nil)
        queue.setPriority(.high, of: 5)
        queue.setPriority(.high, of: 99)
        #expect(queue.priority(of: 5) == nil)
        #expect(queue.count == 3)
        #expect(drain(&queue) == ["a", "d", "b"])
    }

    @Test("jobs added while others are taken keep the order, across many jobs and compactions")
    func manyJobs() {
        var queue = StartOrderQueue<Int>()
        var expected: [Int] = []
        var taken: [Int] = []
        var sequence: UInt64 = 0
        for round in 0..<50 {
            for _ in 0..<200 {
                sequence += 1
                queue.append(Int(sequence), sequence: sequence, priority: .normal)
            }
            for _ in 0..<(round % 2 == 0 ? 150 : 250) {
                guard let next = queue.takeNext() else { break }
                taken.append(next)
            }
        }
        while let next = queue.takeNext() { taken.append(next) }
        expected = Array(1...Int(sequence))
        #expect(taken == expected)
        // A job raised to high from deep in a long queue starts first; one removed from the
        // middle never starts.
        for value in 1...10_000 { queue.append(value, sequence: UInt64(value), priority: .low) }
        queue.setPriority(.high, of: 7_777)
        #expect(queue.remove(5_000) == 5_000)
        #expect(queue.takeNext() == 7_777)
        var rest: [Int] = []
        while let next = queue.takeNext() { rest.append(next) }
        #expect(rest == (1...10_000).filter { $0 != 7_777 && $0 != 5_000 })
    }

    @Test("appending a sequence that is already waiting replaces it")
    func replace() {
        var queue = fiveJobs(lastInFirstOut: false)
        queue.append("a2", sequence: 1, priority: .high)
        #expect(queue.count == 5)
        #expect(drain(&queue) == ["a2", "c", "e", "d", "b"])
    }
}
