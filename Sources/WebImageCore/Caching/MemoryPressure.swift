import FoundationEssentials

/// One reading of Linux's pressure stall information for memory (PSI): the share of time in
/// percent that some (`some`) or all (`full`) tasks waited for memory, averaged over 10 s.
public struct MemoryPressure: Sendable, Equatable {
    public var someAverage10: Double
    public var fullAverage10: Double

    public init(someAverage10: Double, fullAverage10: Double) {
        self.someAverage10 = someAverage10
        self.fullAverage10 = fullAverage10
    }

    /// Parses the text of `/proc/pressure/memory` or a cgroup's `memory.pressure`
    /// (`some avg10=1.23 avg60=... total=...` and a `full` line); nil when it has no `some` line.
    public init?(psi text: String) {
        var some: Double?
        var full = 0.0
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let kind = fields.first,
                let average = fields.first(where: { $0.hasPrefix("avg10=") }).flatMap({ Double($0.dropFirst(6)) })
            else { continue }
            if kind == "some" { some = average } else if kind == "full" { full = average }
        }
        guard let some else { return nil }
        self.init(someAverage10: some, fullAverage10: full)
    }

    /// The PSI file that describes this process: its cgroup's `memory.pressure` (cgroup v2) when
    /// readable, else the system's `/proc/pressure/memory`; nil when the kernel has no PSI.
    public static func sourcePath() -> String? {
        if let cgroups = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8),
            let unified = cgroups.split(separator: "\n").first(where: { $0.hasPrefix("0::") })
        {
            let path = "/sys/fs/cgroup" + unified.dropFirst(3) + "/memory.pressure"
            if FileManager.default.isReadableFile(atPath: path) { return path }
        }
        return FileManager.default.isReadableFile(atPath: "/proc/pressure/memory") ? "/proc/pressure/memory" : nil
    }
}
