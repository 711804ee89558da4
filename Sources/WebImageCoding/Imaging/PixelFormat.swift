/// How the pixels of a ``PixelBuffer`` are laid out in memory.
///
/// Both formats are R, G, B, A in that order with straight (not premultiplied) alpha.
public enum PixelFormat: UInt32, Sendable, CaseIterable, CustomStringConvertible {
    /// 8 bits per channel, 4 bytes per pixel.
    case rgba8 = 1
    /// 16 bits per channel in native byte order, 8 bytes per pixel.
    case rgba16 = 2

    /// Bytes one pixel takes.
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8: 4
        case .rgba16: 8
        }
    }

    public var description: String {
        switch self {
        case .rgba8: "RGBA8"
        case .rgba16: "RGBA16"
        }
    }
}
