import FoundationEssentials
import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP dates (RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`).
enum HTTPDate {
    /// The current second's date, formatted once a second.
    private static let current = TrackedMutex<(second: Int64, text: String)>((0, ""))

    /// Now, as a `Date` header gives it.
    static func now() -> String {
        let second = Int64(time(nil))
        return current.withLock { kept in
            if kept.second != second { kept = (second, format(second)) }
            return kept.text
        }
    }

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `seconds` since 1970 as an HTTP date.
    static func format(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}

/// `If-None-Match` against an entity tag (RFC 9110's weak comparison: `W/` is ignored).
enum EntityTags {
    /// True when `header` (a list of tags, or `*`) matches `tag`.
    static func match(_ header: String, _ tag: String) -> Bool {
        let wanted = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
        return header.split(separator: ",").contains { element in
            let candidate = element.trimmingWhitespace
            return candidate == "*"
                || (candidate.hasPrefix("W/") ? String(candidate.dropFirst(2)) : candidate) == wanted
        }
    }
}
