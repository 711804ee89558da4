import Testing
import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct PixelMemoryPoolTests {
    let megabyte = 1 << 20

    @Test func aFreedLargeBlockIsHandedOutAgain() throws {
        let pool = PixelMemoryPool(capacity: 8 * megabyte)
        let first = try #require(pool.allocate(2 * megabyte, alignment: 64))
        pool.deallocate(first)
        #expect(pool.cachedBytes == 2 * megabyte)
        let second = try #require(pool.allocate(2 * megabyte - 100, alignment: 64))
        #expect(second == first)
        #expect(pool.cachedBytes == 0)
        pool.deallocate(second)
        pool.releaseCachedBlocks()
        #expect(pool.cachedBytes == 0)
    }

    @Test func aBlockMoreThanAQuarterTooLargeIsNotReused() throws {
        let pool = PixelMemoryPool(capacity: 16 * megabyte)
        let large = try #require(pool.allocate(4 * megabyte, alignment: 64))
        pool.deallocate(large)
        let small = try #require(pool.allocate(2 * megabyte, alignment: 64))
        #expect(small != large)
        #expect(pool.cachedBytes == 4 * megabyte)
        pool.deallocate(small)
        pool.releaseCachedBlocks()
    }

    @Test func theOldestBlocksAreFreedBeyondTheCapacity() throws {
        let pool = PixelMemoryPool(capacity: 5 * megabyte)
        let blocks = try (0..<3).map { _ in try #require(pool.allocate(2 * megabyte, alignment: 64)) }
        for block in blocks { pool.deallocate(block) }
        #expect(pool.cachedBytes == 4 * megabyte)
        let reused = try #require(pool.allocate(2 * megabyte, alignment: 64))
        #expect(reused == blocks[2])
        pool.capacity = 0
        #expect(pool.cachedBytes == 0)
        pool.deallocate(reused)
        #expect(pool.cachedBytes == 0)
    }

    @Test func smallAndForeignBlocksAreFreedNotKept() throws {
        let pool = PixelMemoryPool(capacity: 8 * megabyte)
        pool.deallocate(try #require(pool.allocate(4096, alignment: 64)))
        #expect(pool.cachedBytes == 0)
        pool.deallocate(try #require(malloc(2 * megabyte)))
        #expect(pool.cachedBytes == 0)
    }

    @Test func blocksAreAligned() throws {
        let pool = PixelMemoryPool()
        for size in [1, 100, 3 * megabyte] {
            let block = try #require(pool.allocate(size, alignment: 64))
            #expect(Int(bitPattern: block) % 64 == 0)
            pool.deallocate(block)
        }
        pool.releaseCachedBlocks()
    }
}
