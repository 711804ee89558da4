extension PixelBuffer {
    /// True when any pixel is not fully opaque (encoders then keep the alpha channel).
    public var hasTranslucentPixels: Bool {
        for y in 0..<height {
            switch format {
            case .rgba8:
                let row = row(y).assumingMemoryBound(to: UInt8.self)
                for x in 0..<width where row[x * 4 + 3] != 0xFF { return true }
            case .rgba16:
                let row = row(y).assumingMemoryBound(to: UInt16.self)
                for x in 0..<width where row[x * 4 + 3] != 0xFFFF { return true }
            }
        }
        return false
    }
}
