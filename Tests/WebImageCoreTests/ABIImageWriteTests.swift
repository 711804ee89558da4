import CWebImagePlugin
import Testing
import WebImageCore

/// A plugin writes only the fields of `webimage_image` that the host's `struct_size` covers.
@Suite struct ABIImageWriteTests {
    @Test func anOlderHostsSmallerStructIsNotOverrun() throws {
        let image = DecodedImage(pixels: try TestPixels.labelled(width: 2, height: 1), format: "b")
        let oldSize = MemoryLayout<webimage_image>.offset(of: \.format_index)!
        let destination = UnsafeMutablePointer<webimage_image>.allocate(capacity: 1)
        defer { destination.deallocate() }
        destination.initialize(to: webimage_image())
        destination.pointee.struct_size = UInt32(oldSize)
        destination.pointee.format_index = 0xDEAD
        webimage_image(handingOver: image, formatIndex: 1).write(to: destination)
        #expect(destination.pointee.width == 2 && destination.pointee.height == 1)
        #expect(destination.pointee.struct_size == UInt32(oldSize))
        #expect(destination.pointee.format_index == 0xDEAD)
        if let pixels = destination.pointee.pixels { PixelAllocator.system.deallocate(pixels) }
    }

    @Test func aCurrentHostGetsTheFormatIndex() throws {
        let image = DecodedImage(pixels: try TestPixels.labelled(width: 2, height: 1), format: "b")
        let destination = UnsafeMutablePointer<webimage_image>.allocate(capacity: 1)
        defer { destination.deallocate() }
        destination.initialize(to: webimage_image())
        destination.pointee.struct_size = UInt32(MemoryLayout<webimage_image>.size)
        webimage_image(handingOver: image, formatIndex: 1).write(to: destination)
        #expect(destination.pointee.format_index == 1)
        if let pixels = destination.pointee.pixels { PixelAllocator.system.deallocate(pixels) }
    }
}
