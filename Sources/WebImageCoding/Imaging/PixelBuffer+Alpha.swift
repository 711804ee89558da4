extension PixelBuffer {
    /// True when any pixel is not fully opaque (encoders then keep the alpha channel).
    /// Reads 8-bit rows two pixels (one word) at a time.
    public var hasTranslucentPixels: Bool {
        for y in 0..<height {
            switch format {
            case .rgba8:
                // Bytes 3 and 7 of a word are the alpha of its two pixels, in either byte order.
                let alpha = UInt64(littleEndian: 0xFF00_0000_FF00_0000)
                let row = UnsafeRawPointer(row(y))
                var all = alpha
                var x = 0
                while x + 2 <= width {
                    all &= row.loadUnaligned(fromByteOffset: x * 4, as: UInt64.self)
                    x += 2
                }
                if all & alpha != alpha { return true }
                if x < width && row.load(fromByteOffset: x * 4 + 3, as: UInt8.self) != 0xFF { return true }
            case .rgba16:
                let row = row(y).assumingMemoryBound(to: UInt16.self)
                for x in 0..<width where row[x * 4 + 3] != 0xFFFF { return true }
            }
        }
        return false
    }
}
