/// Jobs waiting to start, each for one host, where a host at its share of the running jobs
/// is passed over: the next job is the first in start order (highest priority, then first in
/// first out or last in first out) among the hosts below their share. One
/// ``StartOrderQueue`` per host keeps taking the next job at O(hosts), however many jobs of
/// a full host wait ahead of it.
///
/// Not thread-safe: its owner keeps it under its own lock.
struct HostShareQueue<Element> {
    private var queues: [String: StartOrderQueue<Element>] = [:]
    /// The host of every waiting job, by sequence.
    private var hosts: [UInt64: String] = [:]

    /// True: the newest job of a priority starts first; false (default): the oldest.
    let lastInFirstOut: Bool

    init(lastInFirstOut: Bool = false) {
        self.lastInFirstOut = lastInFirstOut
    }

    /// The default share of one host: all but a third of `total` places (4 of 6, 11 of 16),
    /// at least 1, so the others always keep a place for the jobs of other hosts.
    static func defaultShare(of total: Int) -> Int {
        max(1, total - max(1, total / 3))
    }

    /// The host a URL's job counts against: its scheme, host and port, lowercased
    /// (`http://a.example:8080`, user information dropped); the scheme alone for URLs without
    /// an authority (`data:`).
    /// Only the scheme and the authority are read, so a long `data:` URL costs no copy. The
    /// delimiters are ASCII, so the URL is read as UTF-8 bytes, as a loader reads it (not as
    /// characters, which cost 20,000 instructions a URL).
    static func host(of url: String) -> String {
        let bytes = url.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return "" }
        let scheme = String(lowercasing: bytes[..<colon])
        let rest = bytes[bytes.index(after: colon)...]
        guard rest.starts(with: "//".utf8) else { return scheme + ":" }
        let authority = rest.dropFirst(2).prefix {
            $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#")
        }
        let hostAndPort =
            authority.lastIndex(of: UInt8(ascii: "@")).map { authority[authority.index(after: $0)...] } ?? authority
        return scheme + "://" + String(lowercasing: hostAndPort)
    }

    /// Jobs waiting.
    var count: Int { hosts.count }

    var isEmpty: Bool { hosts.isEmpty }

    /// The priority of the waiting job `sequence`; nil when it is not waiting.
    func priority(of sequence: UInt64) -> ImagePriority? {
        hosts[sequence].flatMap { queues[$0]?.priority(of: sequence) }
    }

    /// Adds a job for `host`; a sequence already waiting is replaced.
    mutating func append(_ element: Element, sequence: UInt64, priority: ImagePriority, host: String) {
        remove(sequence)
        hosts[sequence] = host
        queues[host, default: StartOrderQueue(lastInFirstOut: lastInFirstOut)].append(
            element, sequence: sequence, priority: priority)
    }

    /// True when a job of a host `hasRoom` accepts waits.
    func hasNext(where hasRoom: (String) -> Bool) -> Bool {
        queues.keys.contains(where: hasRoom)
    }

    /// Removes and returns the job that starts next among the hosts `hasRoom` accepts, with
    /// its host; nil when none of theirs waits.
    mutating func takeNext(where hasRoom: (String) -> Bool) -> (element: Element, host: String)? {
        var best: (host: String, priority: ImagePriority, sequence: UInt64)?
        for (host, queue) in queues where hasRoom(host) {
            guard let next = queue.peekNext() else { continue }
            if let current = best {
                guard
                    next.priority > current.priority
                        || (next.priority == current.priority
                            && (lastInFirstOut ? next.sequence > current.sequence : next.sequence < current.sequence))
                else { continue }
            }
            best = (host, next.priority, next.sequence)
        }
        guard let host = best?.host, let element = queues[host]?.takeNext() else { return nil }
        hosts[best!.sequence] = nil
        if queues[host]?.isEmpty == true { queues[host] = nil }
        return (element, host)
    }

    /// Removes the waiting job `sequence`; returns it, or nil when it was not waiting.
    @discardableResult
    mutating func remove(_ sequence: UInt64) -> Element? {
        guard let host = hosts.removeValue(forKey: sequence) else { return nil }
        let element = queues[host]?.remove(sequence)
        if queues[host]?.isEmpty == true { queues[host] = nil }
        return element
    }

    /// Moves the waiting job `sequence` to `priority` (see ``StartOrderQueue/setPriority(_:of:)``).
    mutating func setPriority(_ priority: ImagePriority, of sequence: UInt64) {
        guard let host = hosts[sequence] else { return }
        queues[host]?.setPriority(priority, of: sequence)
    }
}
