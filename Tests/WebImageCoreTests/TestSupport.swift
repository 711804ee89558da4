import WebImageCore

/// Builds RGBA8 buffers whose pixels are chosen per coordinate.
enum TestPixels {
    /// A `width` × `height` RGBA8 buffer with `pixel(x, y)` at each position.
    static func rgba8(width: Int, height: Int, pixel: (Int, Int) -> [UInt8]) throws -> PixelBuffer {
        try filled(width: width, height: height, format: .rgba8, pixel: pixel)
    }

    /// A `width` × `height` RGBA16 buffer with `pixel(x, y)` at each position.
    static func rgba16(width: Int, height: Int, pixel: (Int, Int) -> [UInt16]) throws -> PixelBuffer {
        try filled(width: width, height: height, format: .rgba16, pixel: pixel)
    }

    /// An RGBA16 buffer whose red channel holds the label `y * width + x` (opaque).
    static func labelled16(width: Int, height: Int) throws -> PixelBuffer {
        try rgba16(width: width, height: height) { x, y in [UInt16(y * width + x), 0, 0, 65535] }
    }

    private static func filled<Channel: FixedWidthInteger>(
        width: Int, height: Int, format: PixelFormat, pixel: (Int, Int) -> [Channel]
    ) throws -> PixelBuffer {
        let buffer = try PixelBuffer(width: width, height: height, format: format)
        for y in 0..<height {
            let row = buffer.row(y).assumingMemoryBound(to: Channel.self)
            for x in 0..<width {
                let value = pixel(x, y)
                for channel in 0..<4 { row[x * 4 + channel] = value[channel] }
            }
        }
        return buffer
    }

    /// Each pixel's red channel holds a unique label `y * width + x` (green = 0, blue = 0, alpha = 255).
    static func labelled(width: Int, height: Int) throws -> PixelBuffer {
        try rgba8(width: width, height: height) { x, y in [UInt8(y * width + x), 0, 0, 255] }
    }

    /// The red-channel labels of `buffer`, row by row.
    static func labels(_ buffer: PixelBuffer) -> [[Int]] {
        (0..<buffer.height).map { y in (0..<buffer.width).map { x in buffer.channels(x: x, y: y)[0] } }
    }
}
