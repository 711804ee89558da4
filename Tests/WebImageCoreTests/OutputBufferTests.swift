import CWebImagePlugin
import Testing
import WebImageCoderVerifier
import WebImageCore

/// The growable buffer the shims' encoders write into (`webimage_output_buffer.h`).
@Suite struct OutputBufferTests {
    @Test("pieces are kept in order; growing doubles the capacity and frees the old block")
    func growsByDoubling() {
        let recorder = RecordingAllocator()
        recorder.allocator.withCAllocator { allocator in
            var buffer = webimage_output_buffer_make(allocator)
            var capacities: [Int] = []
            for piece in 0..<10 {
                let bytes = [UInt8](repeating: UInt8(piece), count: 1000)
                #expect(webimage_output_buffer_append(&buffer, bytes, bytes.count))
                if capacities.last != buffer.capacity { capacities.append(buffer.capacity) }
            }
            #expect(capacities == [4096, 8192, 16384])
            #expect(buffer.size == 10_000)
            let written = UnsafeBufferPointer(start: buffer.bytes, count: buffer.size)
            #expect(written.enumerated().allSatisfy { index, byte in Int(byte) == index / 1000 })
            #expect(recorder.liveBlocks == [UInt(bitPattern: buffer.bytes)])
            #expect(recorder.allocationCount == 3)
            webimage_output_buffer_discard(&buffer)
            #expect(buffer.bytes == nil && buffer.size == 0 && buffer.capacity == 0)
        }
        #expect(recorder.liveBlocks.isEmpty)
    }

    @Test("one large write into an empty buffer gets a block of exactly its size")
    func oneWriteGetsAnExactBlock() {
        let recorder = RecordingAllocator()
        recorder.allocator.withCAllocator { allocator in
            var buffer = webimage_output_buffer_make(allocator)
            let bytes = [UInt8](repeating: 7, count: 100_001)
            #expect(webimage_output_buffer_append(&buffer, bytes, bytes.count))
            #expect(buffer.capacity == 100_001)
            #expect(recorder.allocationCount == 1)
            webimage_output_buffer_discard(&buffer)
        }
    }

    @Test("when the allocator fails the append fails and the buffer keeps what it had")
    func failedGrowthKeepsTheBuffer() {
        let recorder = RecordingAllocator()
        let oneBlock = PixelAllocator(
            allocate: { byteCount, alignment in
                recorder.allocationCount == 0 ? recorder.allocator.allocate(byteCount, alignment) : nil
            },
            deallocate: recorder.allocator.deallocate)
        oneBlock.withCAllocator { allocator in
            var buffer = webimage_output_buffer_make(allocator)
            #expect(webimage_output_buffer_append(&buffer, [UInt8]([1, 2, 3]), 3))
            let before = (buffer.bytes, buffer.size, buffer.capacity)
            let large = [UInt8](repeating: 9, count: 5000)
            #expect(!webimage_output_buffer_append(&buffer, large, large.count))
            #expect(buffer.bytes == before.0 && buffer.size == before.1 && buffer.capacity == before.2)
            #expect(Array(UnsafeBufferPointer(start: buffer.bytes, count: buffer.size)) == [1, 2, 3])
            webimage_output_buffer_discard(&buffer)
        }
        #expect(recorder.liveBlocks.isEmpty)
    }
}
