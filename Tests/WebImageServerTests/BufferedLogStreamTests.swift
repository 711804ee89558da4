import Foundation
import Testing
import WebImageServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite("BufferedLogStream")
struct BufferedLogStreamTests {
    /// A pipe whose read end does not block: what has been written to it so far can be read.
    final class Pipe: Sendable {
        let readEnd: Int32
        let writeEnd: Int32

        init() throws {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            (readEnd, writeEnd) = (ends[0], ends[1])
            _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        }

        deinit {
            close(readEnd)
            close(writeEnd)
        }

        /// Everything written so far and not read yet.
        func available() -> String {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(readEnd, &buffer, buffer.count)
                guard count > 0 else { break }
                bytes += buffer[0..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// What is read until `isComplete` holds of it, or 10 seconds have passed.
        func readUntil(_ isComplete: (String) -> Bool) -> String {
            let deadline = ContinuousClock.now + .seconds(10)
            var text = available()
            while !isComplete(text) && ContinuousClock.now < deadline {
                usleep(1_000)
                text += available()
            }
            return text
        }
    }

    @Test("lines wait for flush(), then come out at once, in order")
    func flushWritesAtOnce() throws {
        let pipe = try Pipe()
        let stream = BufferedLogStream(fileDescriptor: pipe.writeEnd, flushInterval: .seconds(3600))
        stream.write("first line\n")
        stream.write("second line\n")
        #expect(pipe.available() == "")
        stream.flush()
        #expect(pipe.available() == "first line\nsecond line\n")
        stream.flush()
        #expect(pipe.available() == "")
    }

    @Test("bytes reaching the buffer limit are written at once; the rest waits")
    func bufferLimit() throws {
        let pipe = try Pipe()
        let stream = BufferedLogStream(fileDescriptor: pipe.writeEnd, flushInterval: .seconds(3600), bufferLimit: 100)
        let line = String(repeating: "a", count: 59) + "\n"
        stream.write(line)
        #expect(pipe.available() == "")
        stream.write(line)
        #expect(pipe.available() == line + line)
        stream.write("tail\n")
        #expect(pipe.available() == "")
        stream.flush()
        #expect(pipe.available() == "tail\n")
    }

    @Test("without flush() a line is written within the flush interval (10 ms by default)")
    func flushedByItself() throws {
        let pipe = try Pipe()
        let stream = BufferedLogStream(fileDescriptor: pipe.writeEnd)
        #expect(stream.flushInterval == .milliseconds(10) && stream.bufferLimit == 65_536)
        stream.write("one line\n")
        #expect(pipe.readUntil { $0.hasSuffix("\n") } == "one line\n")
        stream.write("another\n")
        #expect(pipe.readUntil { $0.hasSuffix("\n") } == "another\n")
    }

    @Test("4 threads writing 2,000 lines each: every line whole, each thread's in its order, none lost")
    func concurrentWriters() async throws {
        let pipe = try Pipe()
        let stream = BufferedLogStream(fileDescriptor: pipe.writeEnd, bufferLimit: 4_096)
        let threads = 4
        let linesEach = 2_000
        // The writers run while this thread reads: they block once the pipe holds 64 KiB.
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for index in 0..<linesEach {
                    stream.write("thread \(thread) line \(index) \(String(repeating: "x", count: index % 50))\n")
                }
            }
        }
        let text = pipe.readUntil { $0.split(separator: "\n").count == threads * linesEach }
        var next = [Int](repeating: 0, count: threads)
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            let (thread, index) = (Int(words[1])!, Int(words[3])!)
            #expect(index == next[thread] && line.hasSuffix(" " + String(repeating: "x", count: index % 50)))
            next[thread] = index + 1
        }
        #expect(next == [Int](repeating: linesEach, count: threads))
    }
}
