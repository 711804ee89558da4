import Foundation
import Testing
import WebImageCore

/// What the modules use in place of full Foundation (`String(format:)`, `NSCondition`,
/// `Thread`, `FileHandle`), so that the tool and its plugins load `FoundationEssentials` only.
@Suite("Foundation-free helpers")
struct FoundationFreeHelpersTests {
    @Test(
        "String(printf:) formats as C's printf",
        arguments: [
            (String(printf: "%.1f ms", 12.345), "12.3 ms"),
            (String(printf: "median %.4f ms, min %.4f ms", 1.0 / 3, 2.0), "median 0.3333 ms, min 2.0000 ms"),
            (String(printf: "%02x", UInt8(10)), "0a"),
            (String(printf: "%g", 30.0), "30"),
            (String(printf: "%g", 2.5), "2.5"),
            (String(printf: "%ld:%02ld:%02ld", 1, 2, 3), "1:02:03"),
            (String(printf: "100%% of %ld", 7), "100% of 7"),
        ])
    func printfFormat(formatted: String, expected: String) {
        #expect(formatted == expected)
    }

    @Test("String(printf:) cuts text at 4,095 bytes")
    func printfCutsLongText() {
        #expect(String(printf: "%5000ld", 1).utf8.count == 4095)
        #expect(String(printf: "%4095ld", 1).utf8.count == 4095)
    }

    @Test("a detached thread runs under its name and a ThreadLock hands its result over", .timeLimit(.minutes(1)))
    func detachedThreadSignalsThroughThreadLock() {
        final class Box: @unchecked Sendable {
            // @unchecked: `name` and `done` are only touched with `lock` held.
            let lock = ThreadLock()
            var name: String?
            var done = false
        }
        let box = Box()
        DetachedThread.start(name: "webimage-test-thread-name") {
            let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            box.lock.lock()
            box.name = comm.trimmingCharacters(in: .newlines)
            box.done = true
            box.lock.signal()
            box.lock.unlock()
        }
        box.lock.lock()
        while !box.done { box.lock.wait() }
        let name = box.name
        box.lock.unlock()
        // The kernel keeps the first 15 bytes of a thread's name.
        #expect(name == "webimage-test-t")
    }
}
