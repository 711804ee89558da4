extension PixelBuffer {
    /// This buffer if it is RGBA8, else an RGBA8 copy (16-bit channels rounded to 8 bits),
    /// for encoders and plugins that take 8 bits only.
    public func eightBit() throws -> PixelBuffer {
        guard format == .rgba16 else { return self }
        let output = try PixelBuffer(width: width, height: height, format: .rgba8)
        for y in 0..<height {
            let source = row(y).assumingMemoryBound(to: UInt16.self)
            let destination = output.row(y).assumingMemoryBound(to: UInt8.self)
            for index in 0..<(width * 4) {
                destination[index] = UInt8((UInt32(source[index]) * 255 + 32767) / 65535)
            }
        }
        return output
    }

    /// This buffer if it is RGBA16, else an RGBA16 copy (each 8-bit channel times 257, so
    /// 255 becomes 65535), for results that must keep a 16-bit caller's format.
    public func sixteenBit() throws -> PixelBuffer {
        guard format == .rgba8 else { return self }
        let output = try PixelBuffer(width: width, height: height, format: .rgba16)
        for y in 0..<height {
            let source = row(y).assumingMemoryBound(to: UInt8.self)
            let destination = output.row(y).assumingMemoryBound(to: UInt16.self)
            for index in 0..<(width * 4) {
                destination[index] = UInt16(source[index]) * 257
            }
        }
        return output
    }
}
