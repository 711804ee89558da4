import Testing
import WebImageCore
import WebImageTestSupport

#if canImport(Glibc)
    import Glibc
#endif

@Suite("LargeBlockMemoryPolicy")
struct LargeBlockMemoryPolicyTests {
    /// Whether glibc mapped `block` on its own: the IS_MMAPPED bit (2) of the size field in
    /// the chunk header just before it.
    static func isMapped(_ block: UnsafeMutableRawPointer) -> Bool {
        UnsafeRawPointer(block).load(fromByteOffset: -MemoryLayout<UInt>.size, as: UInt.self) & 2 != 0
    }

    /// In a process of its own: the threshold is process-wide, and in the test process other
    /// suites' freed blocks can leave room in a heap that a 2 MiB block would be cut from. Not
    /// under ThreadSanitizer, whose allocator replaces glibc's `malloc` (the policy is glibc's).
    @Test(
        "once held, a 2 MiB block is mapped on its own and returned when freed, even after an 8 MiB one was freed",
        .enabled(if: !MeasuredProcess.isThreadSanitized, "ThreadSanitizer's allocator replaces glibc's malloc"))
    func largeBlocksStayMapped() async {
        await #expect(processExitsWith: .success) {
            try #require(LargeBlockMemoryPolicy.holdMmapThreshold())
            // Without the policy, freeing this mapped block would raise the threshold to 8 MiB
            // and put the next 2 MiB block in a heap.
            free(malloc(8 << 20))
            let block = try #require(malloc(2 << 20))
            defer { free(block) }
            try #require(Self.isMapped(block))
            let small = try #require(malloc((1 << 20) - 4096))
            defer { free(small) }
            try #require(!Self.isMapped(small))
        }
    }

    /// In a process of its own, as above. The trim threshold is not observable from here
    /// (glibc has no getter, and whether a heap top is trimmed depends on the heap's layout), so
    /// the test holds it as the user's environment allows: a `MALLOC_TRIM_THRESHOLD_` variable
    /// wins and nothing is set; without one, glibc accepts the value. The effect is measured in
    /// docs/performance.md (page faults of `webimage fetch`).
    @Test(
        "the trim threshold is held unless MALLOC_TRIM_THRESHOLD_ is set",
        .enabled(if: !MeasuredProcess.isThreadSanitized, "ThreadSanitizer's allocator replaces glibc's malloc"))
    func trimThresholdYieldsToTheEnvironment() async {
        await #expect(processExitsWith: .success) {
            setenv("MALLOC_TRIM_THRESHOLD_", "131072", 1)
            try #require(!LargeBlockMemoryPolicy.holdTrimThreshold())
            unsetenv("MALLOC_TRIM_THRESHOLD_")
            try #require(LargeBlockMemoryPolicy.holdTrimThreshold())
        }
    }
}
