import Testing
import WebImageCoderVerifier
import WebImageCore

@Suite struct EncodedImageDataTests {
    @Test("taken memory is freed exactly once, by the given deallocator, when the value goes")
    func deallocatesOnce() {
        let freed = TrackedMutex<[UInt]>([])
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 3, alignment: 1)
        memory.copyMemory(from: [UInt8]([7, 8, 9]), byteCount: 3)
        do {
            let data = EncodedImageData(taking: memory, count: 3) { pointer in
                freed.withLock { $0.append(UInt(bitPattern: pointer)) }
                pointer.deallocate()
            }
            #expect(data.bytes == [7, 8, 9])
            #expect(freed.withLock { $0.isEmpty })
        }
        #expect(freed.withLock { $0 } == [UInt(bitPattern: memory)])
    }

    @Test("a copy reads back as the same bytes through every view")
    func copying() throws {
        let data = try EncodedImageData(copying: [0x89, 0x50, 0x4E, 0x47])
        #expect(data.count == 4)
        #expect(data[1] == 0x50)
        #expect(Array(data.prefix(2)) == [0x89, 0x50])
        #expect(data.withUnsafeBytes { Array($0) } == [0x89, 0x50, 0x4E, 0x47])
        #expect(data.data.count == 4)
    }

    @Test("equal when the bytes are equal; an empty copy is empty")
    func equality() throws {
        #expect(try EncodedImageData(copying: [1, 2, 3]) == (try EncodedImageData(copying: [1, 2, 3])))
        #expect(try EncodedImageData(copying: [1, 2, 3]) != (try EncodedImageData(copying: [1, 2])))
        #expect(try EncodedImageData(copying: []).isEmpty)
    }

    @Test("memory from a known allocator is detached for that allocator only, and then not freed")
    func detachingForTheOwningAllocator() throws {
        let owner = RecordingAllocator()
        let stranger = RecordingAllocator()
        var address: UnsafeMutableRawPointer?
        do {
            let data = try EncodedImageData(copying: [1, 2, 3], allocator: owner.allocator)
            #expect(data.isAllocated(by: owner.allocator))
            #expect(!data.isAllocated(by: stranger.allocator))
            #expect(!data.isAllocated(by: .system))
            #expect(data.detach(ifAllocatedBy: stranger.allocator) == nil)
            address = data.detach(ifAllocatedBy: owner.allocator)
            #expect(address == data.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress) })
        }
        let detached = try #require(address)
        #expect(owner.liveBlocks == [UInt(bitPattern: detached)])
        owner.allocator.deallocate(detached)
        #expect(owner.liveBlocks.isEmpty)
    }

    @Test("memory with only a deallocator belongs to no allocator and is never detached")
    func takenMemoryIsNotDetached() {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
        let data = EncodedImageData(taking: memory, count: 1) { $0.deallocate() }
        #expect(!data.isAllocated(by: .system))
        #expect(data.detach(ifAllocatedBy: .system) == nil)
    }

    @Test("an allocator equals its copies and no separately made allocator")
    func allocatorIdentity() {
        let copy = PixelAllocator.system
        #expect(copy == PixelAllocator.system)
        let made = PixelAllocator(
            allocate: PixelAllocator.system.allocate, deallocate: PixelAllocator.system.deallocate)
        #expect(made != PixelAllocator.system)
        #expect(made == made)
    }
}
