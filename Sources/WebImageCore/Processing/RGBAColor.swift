/// A colour with straight alpha, 8 bits per channel, for transformer parameters. On RGBA16
/// images each channel is widened exactly (`value × 257`).
public struct RGBAColor: Sendable, Equatable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// 255 is opaque. Default 255.
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Opaque black.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)

    /// Parses `#RRGGBB` (opaque) or `#RRGGBBAA`, hexadecimal digits in either case.
    /// - Throws: ``ImageTransformError`` `.invalidParameter` for anything else.
    public init(hex text: String) throws(ImageTransformError) {
        let digits = Array(text.utf8.dropFirst())
        let isHexadecimal = digits.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0 & 0xDF) }
        guard text.hasPrefix("#"), digits.count == 6 || digits.count == 8, isHexadecimal,
            let value = UInt32(String(decoding: digits, as: UTF8.self), radix: 16)
        else {
            throw ImageTransformError(.invalidParameter, "invalid colour '\(text)': expected #RRGGBB or #RRGGBBAA")
        }
        let full = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(
            red: UInt8(truncatingIfNeeded: full >> 24), green: UInt8(truncatingIfNeeded: full >> 16),
            blue: UInt8(truncatingIfNeeded: full >> 8), alpha: UInt8(truncatingIfNeeded: full))
    }

    /// `#RRGGBBAA` in upper-case hexadecimal, the form transformer keys use.
    public var description: String {
        "#"
            + [red, green, blue, alpha].map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return byte < 16 ? "0" + digits : digits
            }.joined()
    }

    /// The channels scaled to `maxValue` (255 or 65535), straight alpha.
    func channels(maxValue: Float) -> SIMD4<Float> {
        SIMD4(Float(red), Float(green), Float(blue), Float(alpha)) * (maxValue / 255)
    }
}
