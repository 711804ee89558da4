/// Jobs waiting to start, in the order they start: the highest priority first, then by
/// arrival (first in, first out; or last in, first out). Each job is named by its sequence
/// number, unique in the queue.
///
/// Adding a job and taking the next cost amortised O(1); changing a waiting job's priority or
/// removing it costs a binary search and a move of the jobs after it in its priority. A queue
/// that scanned every waiting job to find the next made a long prefetch list quadratic: 10,000
/// queued downloads meant 50 million comparisons on the loader's thread.
///
/// Not thread-safe: its owner keeps it under its own lock.
struct StartOrderQueue<Element> {
    private struct Entry {
        let sequence: UInt64
        let element: Element
    }

    /// The entries of one priority by ascending sequence; those before `head` were taken.
    private struct Bucket {
        var entries: [Entry] = []
        var head = 0

        var isEmpty: Bool { head == entries.count }

        /// The first index at or after `head` whose sequence is not below `sequence`.
        func position(of sequence: UInt64) -> Int {
            var low = head
            var high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].sequence < sequence { low = middle + 1 } else { high = middle }
            }
            return low
        }

        mutating func insert(_ entry: Entry) {
            if entries.last.map({ $0.sequence < entry.sequence }) ?? true {
                entries.append(entry)
            } else {
                entries.insert(entry, at: position(of: entry.sequence))
            }
        }

        mutating func remove(_ sequence: UInt64) -> Entry? {
            let index = position(of: sequence)
            guard index < entries.count, entries[index].sequence == sequence else { return nil }
            return entries.remove(at: index)
        }

        mutating func takeOldest() -> Entry? {
            guard !isEmpty else { return nil }
            let entry = entries[head]
            head += 1
            if head == entries.count {
                entries.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= entries.count {
                entries.removeFirst(head)
                head = 0
            }
            return entry
        }

        mutating func takeNewest() -> Entry? {
            guard !isEmpty else { return nil }
            let entry = entries.removeLast()
            if isEmpty {
                entries.removeAll(keepingCapacity: true)
                head = 0
            }
            return entry
        }
    }

    /// One bucket per priority, by the priority's raw value.
    private var buckets = [Bucket](repeating: Bucket(), count: ImagePriority.allCases.count)
    /// The priority of every waiting job, by sequence.
    private var priorities: [UInt64: ImagePriority] = [:]

    /// True: the newest job of a priority starts first; false (default): the oldest.
    let lastInFirstOut: Bool

    init(lastInFirstOut: Bool = false) {
        self.lastInFirstOut = lastInFirstOut
    }

    /// Jobs waiting.
    var count: Int { priorities.count }

    var isEmpty: Bool { priorities.isEmpty }

    /// The priority of the waiting job `sequence`; nil when it is not waiting.
    func priority(of sequence: UInt64) -> ImagePriority? { priorities[sequence] }

    /// Adds a job; a sequence already waiting is replaced.
    mutating func append(_ element: Element, sequence: UInt64, priority: ImagePriority) {
        remove(sequence)
        priorities[sequence] = priority
        buckets[priority.rawValue].insert(Entry(sequence: sequence, element: element))
    }

    /// The priority and sequence of the job that starts next, left waiting; nil when none waits.
    func peekNext() -> (priority: ImagePriority, sequence: UInt64)? {
        for index in buckets.indices.reversed() where !buckets[index].isEmpty {
            let bucket = buckets[index]
            let entry = lastInFirstOut ? bucket.entries[bucket.entries.count - 1] : bucket.entries[bucket.head]
            return (ImagePriority(rawValue: index)!, entry.sequence)
        }
        return nil
    }

    /// Removes and returns the job that starts next; nil when none waits.
    mutating func takeNext() -> Element? {
        // Highest priority first: bucket indices are the priorities' raw values.
        for index in buckets.indices.reversed() where !buckets[index].isEmpty {
            guard let entry = lastInFirstOut ? buckets[index].takeNewest() : buckets[index].takeOldest() else {
                continue
            }
            priorities[entry.sequence] = nil
            return entry.element
        }
        return nil
    }

    /// Removes the waiting job `sequence`; returns it, or nil when it was not waiting.
    @discardableResult
    mutating func remove(_ sequence: UInt64) -> Element? {
        guard let priority = priorities.removeValue(forKey: sequence) else { return nil }
        return buckets[priority.rawValue].remove(sequence)?.element
    }

    /// Moves the waiting job `sequence` to `priority`, keeping its place of arrival among the
    /// jobs of that priority; nothing when it is not waiting.
    mutating func setPriority(_ priority: ImagePriority, of sequence: UInt64) {
        guard let current = priorities[sequence], current != priority,
            let entry = buckets[current.rawValue].remove(sequence)
        else { return }
        priorities[sequence] = priority
        buckets[priority.rawValue].insert(entry)
    }
}
