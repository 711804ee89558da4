import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// CPU time used so far, for benchmarks that compare wall time with the CPU a side needed:
/// this process's (user + system, every thread) and, when a server's process id is given,
/// that process's (read from `/proc/PID/stat`, in clock ticks).
struct BenchCPUClock {
    /// CPU seconds at one moment.
    struct Reading {
        var process: Double
        var server: Double?
    }

    /// The server's process id; nil: none is read.
    let serverPID: Int32?

    /// The CPU seconds used so far.
    func now() -> Reading {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let process =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        return Reading(process: process, server: serverPID.flatMap(Self.serverSeconds))
    }

    /// User + system seconds of process `pid` from `/proc/PID/stat`; nil when unreadable.
    static func serverSeconds(_ pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = text.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": field 3 is the state; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
