import CurlLoader
import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

extension CurlLoaderTests {
    @Suite("Curl loader cancellation", .ownThread)
    struct CurlCancellationTests {
        let loader = CurlLoaderFactory.loader
        let server: NginxServer

        init() throws {
            server = try NginxServer()
        }

        func cancelled(_ result: Result<LoadMetrics, ImageLoadingError>?) -> Bool {
            if case .failure(let error) = result { return error.kind == .cancelled }
            return false
        }

        @Test func cancelWhileQueuedBehindTheConnectionLimit() throws {
            let slow = (0..<6).map { _ in EventRecorder() }
            let slowTasks = try slow.map {
                try loader.start(LoadRequest(url: server.http + "/slow/slow.bin"), handler: $0.handler)
            }
            let queued = EventRecorder()
            let queuedTask = try loader.start(LoadRequest(url: server.http + "/slow/slow.bin"), handler: queued.handler)
            Thread.sleep(forTimeInterval: 0.3)
            queuedTask.cancel()
            #expect(cancelled(queued.completion(within: 2)))
            #expect(!queued.hasData)
            for task in slowTasks { task.cancel() }
            for recorder in slow { #expect(cancelled(recorder.completion(within: 2))) }
        }

        @Test func cancelRightAfterStart() throws {
            let recorder = EventRecorder()
            let task = try loader.start(LoadRequest(url: server.http + "/slow/slow.bin"), handler: recorder.handler)
            task.cancel()
            task.cancel()
            #expect(cancelled(recorder.completion(within: 2)))
            #expect(recorder.completionCount == 1)
        }

        @Test func cancelMidBody() throws {
            let recorder = EventRecorder()
            let task = try loader.start(LoadRequest(url: server.http + "/slow/slow.bin"), handler: recorder.handler)
            let deadline = Date().addingTimeInterval(3)
            while !recorder.hasData, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            #expect(recorder.hasData)
            task.cancel()
            #expect(cancelled(recorder.completion(within: 2)))
            #expect(recorder.dataBytes < 60_000)
        }

        @Test func cancelAfterCompletionChangesNothing() throws {
            let recorder = EventRecorder()
            let task = try loader.start(LoadRequest(url: server.http + "/static/small.bin"), handler: recorder.handler)
            guard case .success = recorder.completion(within: 5) else {
                Issue.record("the load did not succeed")
                return
            }
            task.cancel()
            Thread.sleep(forTimeInterval: 0.05)
            #expect(recorder.completionCount == 1)
        }

        @Test func thousandRandomStartsAndCancelsLeakNothing() throws {
            var generator = SystemRandomNumberGenerator()
            // 100 transfers of 1 KB, 1 MB and 60 KB slowly, half cancelled at once and the rest
            // in random order, each completing exactly once.
            func round(_ round: Int) throws {
                var started: [(any LoadTask, EventRecorder)] = []
                for index in 0..<100 {
                    let recorder = EventRecorder()
                    let path = ["/static/small.bin", "/static/large.bin", "/slow/slow.bin"][(round + index) % 3]
                    let task = try loader.start(LoadRequest(url: server.http + path), handler: recorder.handler)
                    if Bool.random(using: &generator) { task.cancel() }
                    started.append((task, recorder))
                }
                for (task, _) in started.shuffled(using: &generator) { task.cancel() }
                for (_, recorder) in started {
                    #expect(recorder.completion(within: 10) != nil)
                    #expect(recorder.completionCount == 1)
                }
            }
            // Warm up: the I/O thread, its wakeup pipe, a connection pool and the allocator's
            // high-water mark of one round exist before counting.
            for _ in 0..<12 {
                let recorder = EventRecorder()
                _ = try loader.start(LoadRequest(url: server.http + "/static/small.bin"), handler: recorder.handler)
                _ = recorder.completion(within: 5)
            }
            try round(0)
            Thread.sleep(forTimeInterval: 0.1)  // the I/O thread drops its last reference after on_complete
            let descriptorsBefore = OpenFileDescriptors.count
            let tasksBefore = CurlLoaderPlugin.liveTasks
            let residentBefore = try ResidentMemory.bytes()
            for index in 1...10 { try round(index) }
            let deadline = Date().addingTimeInterval(2)
            while CurlLoaderPlugin.liveTasks != tasksBefore, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            #expect(CurlLoaderPlugin.transfersInFlight == 0)
            #expect(CurlLoaderPlugin.liveTasks == tasksBefore)
            // libcurl keeps at most 6 idle connections per host in its pool; other tests of the
            // process may hold a few descriptors for a moment, so the fewest of several samples
            // counts. A leak of the 1,000 transfers' sockets would be far above this bound.
            var descriptorsAfter = Int.max
            for _ in 0..<5 {
                descriptorsAfter = min(descriptorsAfter, OpenFileDescriptors.count)
                Thread.sleep(forTimeInterval: 0.1)
            }
            #expect(descriptorsAfter <= descriptorsBefore + 16)
            // Each transfer's easy handle holds a 128 KB receive buffer, and a large body is
            // 1 MB: leaking either for the 1,000 transfers would be 100 MB or more. 32 MB allows
            // for the allocator's and the test runner's own growth.
            let residentAfter = try ResidentMemory.bytes()
            #expect(residentAfter <= residentBefore + 32 << 20, "RSS \(residentBefore) -> \(residentAfter) bytes")
        }

        @Test func shutdownWithTransfersInFlight() throws {
            let recorders = (0..<10).map { _ in EventRecorder() }
            let tasks = try recorders.map {
                try loader.start(LoadRequest(url: server.http + "/slow/slow.bin"), handler: $0.handler)
            }
            Thread.sleep(forTimeInterval: 0.2)
            loader.shutdown()
            for recorder in recorders { #expect(cancelled(recorder.completion(within: 1))) }
            #expect(CurlLoaderPlugin.transfersInFlight == 0)
            _ = tasks
            let (_, body, _) = try loadBlocking(server.http + "/static/small.bin")
            #expect(body == server.files["small.bin"])
        }

        /// A load after shutdown: the I/O thread starts again.
        func loadBlocking(_ url: String) throws -> (LoadResponse?, [UInt8], Bool) {
            let body = BodyCollector()
            let recorder = EventRecorder()
            let task = try loader.start(LoadRequest(url: url)) { event in
                body.take(event)
                recorder.handler(event)
            }
            let result = recorder.completion(within: 5)
            _ = task
            if case .success = result { return (nil, body.bytes, true) }
            return (nil, body.bytes, false)
        }
    }
}

/// Body bytes collected from events.
final class BodyCollector: Sendable {
    private let storage = TrackedMutex<[UInt8]>([])
    func take(_ event: LoadEvent) {
        if case .data(let chunk) = event { storage.withLock { $0 += chunk } }
    }
    var bytes: [UInt8] { storage.withLock { $0 } }
}
