#if canImport(Glibc)
    import Glibc
#endif

/// How the process finds its local time zone, which every access-log line's timestamp needs.
///
/// swift-log's `StreamLogHandler` stamps each line with `localtime`, and while the `TZ`
/// variable is unset glibc's `localtime` checks `/etc/localtime` with a `stat` on every call,
/// to notice a changed zone: one system call per request, about 3 % of a memory hit's time
/// in `webimage serve` (docs/performance.md). With `TZ` set to `:/etc/localtime`, glibc reads
/// the same file once and keeps it. ``readOnce()`` sets it.
public enum LocalTimeZonePolicy {
    /// What ``readOnce()`` sets `TZ` to: the system's zone file, read once.
    public static let systemZoneFile = ":/etc/localtime"

    /// Sets `TZ` to ``systemZoneFile`` when it is unset, so the local time zone is read once
    /// rather than checked at each timestamp; a change of `/etc/localtime` while the process
    /// runs is then not seen (as with any `TZ`). A `TZ` already in the environment is the
    /// user's choice and wins (nothing is changed).
    /// - Returns: whether `TZ` was set here.
    @discardableResult
    public static func readOnce() -> Bool {
        guard getenv("TZ") == nil else { return false }
        return setenv("TZ", systemZoneFile, 0) == 0
    }
}
