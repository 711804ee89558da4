import Foundation
import WebImageCore
import WebImageTestSupport

/// Decodes with libjpeg-turbo's own `djpeg` tool (package libjpeg-turbo-progs), the
/// reference our pixels must equal.
enum Djpeg {
    struct Output {
        var width: Int
        var height: Int
        /// 1 for PGM, 3 for PPM.
        var channels: Int
        var samples: [UInt8]

        /// How many pixels of `pixels` (RGBA8 of the same size) differ from these samples
        /// (gray replicated, alpha 255).
        func mismatchedPixels(_ pixels: PixelBuffer) -> Int {
            var mismatches = 0
            for y in 0..<height {
                for x in 0..<width {
                    let offset = (y * width + x) * channels
                    let expected =
                        channels == 1
                        ? [Int](repeating: Int(samples[offset]), count: 3)
                        : (0..<3).map { Int(samples[offset + $0]) }
                    if pixels.channels(x: x, y: y) != expected + [255] { mismatches += 1 }
                }
            }
            return mismatches
        }
    }

    /// `djpeg -pnm [-scale num/8] file`.
    static func decode(_ path: String, scaleEighths: Int = 8) throws -> Output {
        var arguments = ["-pnm"]
        if scaleEighths != 8 { arguments += ["-scale", "\(scaleEighths)/8"] }
        return try parsePNM(try ChildProcess.output(of: "/usr/bin/djpeg", arguments + [path]))
    }

    /// `djpeg -pnm [-scale num/8]` of `bytes`, written to a temporary file first.
    static func decode(bytes: [UInt8], scaleEighths: Int = 8) throws -> Output {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("input.jpg")
        try Data(bytes).write(to: file)
        return try decode(file.path, scaleEighths: scaleEighths)
    }

    /// Parses a binary PGM (P5) or PPM (P6) with maxval 255.
    static func parsePNM(_ bytes: [UInt8]) throws -> Output {
        var fields: [String] = []
        var index = 0
        while fields.count < 4 && index < bytes.count {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D {
                index += 1
            }
            var field = ""
            while index < bytes.count, bytes[index] != 0x20, bytes[index] != 0x0A, bytes[index] != 0x0D {
                field.append(Character(UnicodeScalar(bytes[index])))
                index += 1
            }
            fields.append(field)
        }
        index += 1
        guard fields.count == 4, let width = Int(fields[1]), let height = Int(fields[2]) else {
            throw HarnessError("djpeg wrote an unexpected header \(fields)")
        }
        let channels = fields[0] == "P5" ? 1 : 3
        return Output(width: width, height: height, channels: channels, samples: Array(bytes[index...]))
    }
}
