import Testing
import WebImageCoderVerifier
import WebImageCore

@Suite struct EncodedImageWriterTests {
    @Test(
        "pieces written from arrays, slices, other collections and raw bytes come back in order, in the allocator's block"
    )
    func writesIntoTheAllocator() throws {
        let recorder = RecordingAllocator()
        let writer = EncodedImageWriter(allocator: recorder.allocator)
        try writer.append([1, 2, 3])
        try writer.append([0, 4, 5, 0][1...2])
        try writer.append(6...7 as ClosedRange<UInt8>)
        try [UInt8](repeating: 8, count: 5000).withUnsafeBytes { try writer.append($0) }
        #expect(writer.count == 5007)
        let encoded = try writer.finish()
        #expect(Array(encoded.prefix(8)) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(encoded.count == 5007)
        #expect(recorder.holdsOnly(encoded))
        #expect(writer.count == 0)
    }

    @Test("a writer released unfinished frees its block; finishing with nothing written is an error")
    func unfinishedWritesAreFreed() throws {
        let recorder = RecordingAllocator()
        do {
            let writer = EncodedImageWriter(allocator: recorder.allocator)
            try writer.append([1, 2, 3])
            #expect(recorder.liveBlocks.count == 1)
        }
        #expect(recorder.liveBlocks.isEmpty)
        let error = try #require(throws: ImageCodingError.self) {
            try EncodedImageWriter(allocator: recorder.allocator).finish()
        }
        #expect(error.kind == .internalError)
    }

    @Test("an allocator that fails makes the append throw .outOfMemory")
    func failingAllocator() throws {
        let failing = PixelAllocator(allocate: { _, _ in nil }, deallocate: { _ in })
        let error = try #require(throws: ImageCodingError.self) {
            try EncodedImageWriter(allocator: failing).append([1])
        }
        #expect(error.kind == .outOfMemory)
    }
}
