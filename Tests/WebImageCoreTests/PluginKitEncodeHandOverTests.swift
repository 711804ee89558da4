import CWebImagePlugin
import Testing
import WebImageCore

@testable import WebImagePluginKit

/// How the plugin kit returns encoded bytes to the host: the block the coder wrote into
/// when it came from the host's allocator, a copy in host memory otherwise.
@Suite struct PluginKitEncodeHandOverTests {
    /// The allocator the plugin kit was given (installing the round-trip tests' coder first).
    var hostAllocator: PixelAllocator {
        _ = PluginKitRoundTripTests.descriptor
        return ExportedCoder.installed.allocator
    }

    @Test("bytes in the host's memory are handed over as they are: the same block, no copy")
    func hostMemoryIsHandedOverWithoutACopy() throws {
        let allocator = hostAllocator
        let encoded = try EncodedImageData(copying: [1, 2, 3, 4], allocator: allocator)
        let written = encoded.withUnsafeBytes { $0.baseAddress }
        var output = webimage_buffer()
        try handOver(encoded, to: &output)
        #expect(UnsafeRawPointer(output.bytes) == written)
        #expect(output.size == 4)
        #expect(Array(UnsafeBufferPointer(start: output.bytes, count: output.size)) == [1, 2, 3, 4])
        allocator.deallocate(UnsafeMutableRawPointer(output.bytes!))
    }

    @Test("bytes anywhere else are copied once into the host's memory")
    func otherMemoryIsCopied() throws {
        let allocator = hostAllocator
        let encoded = try EncodedImageData(copying: [5, 6, 7], allocator: .system)
        var output = webimage_buffer()
        try handOver(encoded, to: &output)
        #expect(UnsafeRawPointer(output.bytes) != encoded.withUnsafeBytes { $0.baseAddress })
        #expect(Array(UnsafeBufferPointer(start: output.bytes, count: output.size)) == [5, 6, 7])
        #expect(encoded.bytes == [5, 6, 7])
        allocator.deallocate(UnsafeMutableRawPointer(output.bytes!))
    }
}
