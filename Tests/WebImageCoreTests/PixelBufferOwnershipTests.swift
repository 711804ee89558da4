import Dispatch
import Testing
import WebImageCore

@Suite("PixelBuffer ownership")
struct PixelBufferOwnershipTests {
    /// Addresses recorded from any thread.
    final class RecordedAddresses: Sendable {
        private let addresses = TrackedMutex<[UInt]>([])

        var all: [UInt] { addresses.withLock { $0 } }

        func record(_ pointer: UnsafeMutableRawPointer) {
            addresses.withLock { $0.append(UInt(bitPattern: pointer)) }
        }
    }

    private func makeBuffer(
        over memory: UnsafeMutableRawPointer, recordingInto freed: RecordedAddresses
    ) -> PixelBuffer {
        PixelBuffer(adopting: memory, width: 2, height: 2, bytesPerRow: 8, format: .rgba8) { freed.record($0) }
    }

    @Test("a released buffer frees its memory exactly once")
    func releaseFreesOnce() {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 64)
        defer { memory.deallocate() }
        let freed = RecordedAddresses()
        do {
            let buffer = makeBuffer(over: memory, recordingInto: freed)
            #expect(buffer.baseAddress == memory)
        }
        #expect(freed.all == [UInt(bitPattern: memory)])
    }

    @Test("a detached buffer returns its address and never frees it")
    func detachHandsOver() {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 64)
        defer { memory.deallocate() }
        let freed = RecordedAddresses()
        do {
            let buffer = makeBuffer(over: memory, recordingInto: freed)
            #expect(buffer.detach() == memory)
        }
        #expect(freed.all == [])
    }

    @Test("buffers detached on other threads free nothing; the others free exactly their own memory")
    func detachAcrossThreads() {
        let memory = (0..<64).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 64) }
        defer { for block in memory { block.deallocate() } }
        let addresses = memory.map { UInt(bitPattern: $0) }
        let freed = RecordedAddresses()
        let detached = RecordedAddresses()
        do {
            let buffers = memory.map { makeBuffer(over: $0, recordingInto: freed) }
            DispatchQueue.concurrentPerform(iterations: buffers.count) { index in
                if index.isMultiple(of: 2) { detached.record(buffers[index].detach()) }
            }
        }
        let even = addresses.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element)
        let odd = addresses.enumerated().filter { !$0.offset.isMultiple(of: 2) }.map(\.element)
        #expect(detached.all.sorted() == even.sorted())
        #expect(freed.all.sorted() == odd.sorted())
    }

    @Test("detaching twice traps")
    func detachTwiceTraps() async {
        await #expect(processExitsWith: .failure) {
            let buffer = try PixelBuffer(width: 1, height: 1, format: .rgba8)
            _ = buffer.detach()
            _ = buffer.detach()
        }
    }
}
