import Testing
import WebImageServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite("LocalTimeZonePolicy")
struct LocalTimeZonePolicyTests {
    /// The offset from UTC of the local time now, in seconds, as `localtime` gives it.
    static func localOffset() -> Int {
        var now = time(nil)
        return localtime(&now).map { Int($0.pointee.tm_gmtoff) } ?? .min
    }

    /// In a process of its own: `TZ` is process-wide.
    @Test("with TZ unset it becomes :/etc/localtime and local times stay the same; a TZ given is kept")
    func zoneFileReadOnce() async {
        await #expect(processExitsWith: .success) {
            unsetenv("TZ")
            let offset = Self.localOffset()
            try #require(LocalTimeZonePolicy.readOnce())
            try #require(getenv("TZ").map { String(cString: $0) } == ":/etc/localtime")
            try #require(Self.localOffset() == offset)
            setenv("TZ", "UTC", 1)
            try #require(!LocalTimeZonePolicy.readOnce())
            try #require(getenv("TZ").map { String(cString: $0) } == "UTC")
            try #require(Self.localOffset() == 0)
        }
    }
}
