import Foundation
import WebImageCoderVerifier
import WebImageTestSupport

/// Writes JPEG files for tests with libjpeg-turbo's `cjpeg` (package libjpeg-turbo-progs)
/// from a generated picture: gradients plus deterministic noise, so that the entropy-coded
/// data is large for its size (about 0.9 bytes per pixel at quality 95 in 4:2:0).
enum Cjpeg {
    /// The bytes of a `width` × `height` JPEG written by `cjpeg -quality 95 <options>`.
    static func encode(width: Int, height: Int, options: [String], seed: UInt32 = 1) throws -> [UInt8] {
        let directory = try TemporaryDirectory()
        let input = directory.url.appendingPathComponent("picture.ppm")
        try Data(picture(width: width, height: height, seed: seed)).write(to: input)
        return try ChildProcess.output(of: "/usr/bin/cjpeg", ["-quality", "95"] + options + [input.path])
    }

    /// A binary PPM: red follows x, green follows y, blue follows x + y, each plus 0...63 of noise.
    static func picture(width: Int, height: Int, seed: UInt32) -> [UInt8] {
        var generator = SeededNoise(seed: seed)
        func noise() -> Int { Int(generator.next() >> 26) }
        var bytes = [UInt8]("P6\n\(width) \(height)\n255\n".utf8)
        bytes.reserveCapacity(bytes.count + width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                bytes.append(UInt8((x * 255 / width + noise()) % 256))
                bytes.append(UInt8((y * 255 / height + noise()) % 256))
                bytes.append(UInt8(((x + y) % 256 + noise()) % 256))
            }
        }
        return bytes
    }
}
