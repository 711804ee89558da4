import FoundationEssentials

/// What a response's `Cache-Control` and `Expires` say about how long a shared cache may use
/// a copy of it without asking the origin again (RFC 9111 section 4.2.1, read as a shared
/// cache reads it; `Age` and heuristic freshness are not used).
struct ResponseFreshness: Sendable, Hashable {
    /// Seconds the copy is fresh for: `s-maxage`, else `max-age`, else `Expires` less `Date`
    /// (less the time of receipt without `Date`; an `Expires` that is not an HTTP date is 0);
    /// `no-cache` makes it 0. Nil when the response names none.
    var lifetime: Double?
    /// `Cache-Control: no-store`: the copy is not to be kept.
    var noStore = false

    /// The freshness of a response with `headers` received at `receivedAt` (seconds since 1970).
    init(headers: HTTPHeaders, receivedAt: Double) {
        var directives: [String: String] = [:]
        for field in headers where HTTPHeaders.same(field.name, "Cache-Control") {
            for item in field.value.split(separator: ",") {
                let parts = item.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingWhitespace.trimmingQuotes
                }
                guard let name = parts.first?.lowercased(), !name.isEmpty else { continue }
                directives[name] = directives[name] ?? (parts.count > 1 ? parts[1] : "")
            }
        }
        noStore = directives["no-store"] != nil
        if directives["no-cache"] != nil {
            lifetime = 0
        } else if let age = directives["s-maxage"] ?? directives["max-age"] {
            lifetime = Double(UInt32(age) ?? 0)
        } else if let expires = headers["Expires"] {
            let origin = headers["Date"].flatMap(Self.parseDate) ?? receivedAt
            lifetime = Self.parseDate(expires).map { max(0, $0 - origin) } ?? 0
        }
    }

    /// Seconds since 1970 of an HTTP date (RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`);
    /// nil for another form.
    static func parseDate(_ text: String) -> Double? {
        let parts = text.trimmingWhitespace.split(separator: " ")
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[5] == "GMT",
            let day = Int(parts[1]), let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3])
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        var components = DateComponents(
            year: year, month: month + 1, day: day, hour: time[0], minute: time[1], second: time[2])
        components.timeZone = TimeZone(identifier: "UTC")
        guard components.isValidDate(in: utcCalendar) else { return nil }
        return utcCalendar.date(from: components)?.timeIntervalSince1970
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}

extension String {
    /// The text without the double quotes at its start and end (a quoted directive value).
    fileprivate var trimmingQuotes: String {
        var view = Substring(self)
        while view.first == "\"" { view.removeFirst() }
        while view.last == "\"" { view.removeLast() }
        return String(view)
    }
}
