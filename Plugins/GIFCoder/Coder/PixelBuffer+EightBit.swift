import WebImageCore

extension PixelBuffer {
    /// This buffer if it is RGBA8, else an RGBA8 copy (16-bit channels rounded to 8 bits).
    func eightBit() throws -> PixelBuffer {
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
}
