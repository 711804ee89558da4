import Testing
import WebImageCore

@Suite struct ImageResizerTests {
    @Test func halvingAveragesEachTwoByTwoBlock() throws {
        let source = try TestPixels.rgba8(width: 4, height: 2) { x, _ in [UInt8(x * 40), 100, 200, 255] }
        let output = try ImageResizer.resize(source, width: 2, height: 1)
        #expect(output.width == 2 && output.height == 1)
        #expect(output.channels(x: 0, y: 0) == [20, 100, 200, 255])
        #expect(output.channels(x: 1, y: 0) == [100, 100, 200, 255])
    }

    @Test func fractionalScaleWeighsPartialPixels() throws {
        // 3 pixels to 2: output 0 covers source 0 fully and half of source 1.
        let source = try TestPixels.rgba8(width: 3, height: 1) { x, _ in [[0, 90, 180][x], 0, 0, 255] }
        let output = try ImageResizer.resize(source, width: 2, height: 1)
        #expect(output.channels(x: 0, y: 0)[0] == 30)
        #expect(output.channels(x: 1, y: 0)[0] == 150)
    }

    @Test func transparentPixelsDoNotDarkenColour() throws {
        let source = try TestPixels.rgba8(width: 2, height: 1) { x, _ in x == 0 ? [255, 0, 0, 255] : [0, 0, 0, 0] }
        let output = try ImageResizer.resize(source, width: 1, height: 1)
        #expect(output.channels(x: 0, y: 0) == [255, 0, 0, 128])
    }

    @Test func sixteenBitChannelsKeepTheirPrecision() throws {
        let source = try PixelBuffer(width: 2, height: 1, format: .rgba16)
        let row = source.row(0).assumingMemoryBound(to: UInt16.self)
        for (index, value) in [1000, 2000, 3000, 65535, 1002, 2002, 3002, 65535].enumerated() {
            row[index] = UInt16(value)
        }
        let output = try ImageResizer.resize(source, width: 1, height: 1)
        #expect(output.format == .rgba16)
        #expect(output.channels(x: 0, y: 0) == [1001, 2001, 3001, 65535])
    }

    @Test func uniformImageStaysUniformAtAnySize() throws {
        let source = try TestPixels.rgba8(width: 97, height: 61) { _, _ in [12, 34, 56, 255] }
        let output = try ImageResizer.resize(source, width: 13, height: 7)
        for y in 0..<7 { for x in 0..<13 { #expect(output.channels(x: x, y: y) == [12, 34, 56, 255]) } }
    }
}
