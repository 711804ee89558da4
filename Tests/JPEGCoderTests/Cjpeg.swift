import Foundation

/// Writes JPEG files for tests with libjpeg-turbo's `cjpeg` (package libjpeg-turbo-progs)
/// from a generated picture: gradients plus deterministic noise, so that the entropy-coded
/// data is large for its size (about 0.9 bytes per pixel at quality 95 in 4:2:0).
enum Cjpeg {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The bytes of a `width` × `height` JPEG written by `cjpeg -quality 95 <options>`.
    static func encode(width: Int, height: Int, options: [String], seed: UInt32 = 1) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("webimage-cjpeg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("picture.ppm")
        let output = directory.appendingPathComponent("picture.jpg")
        try Data(picture(width: width, height: height, seed: seed)).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/cjpeg")
        process.arguments = ["-quality", "95"] + options + ["-outfile", output.path, input.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "cjpeg \(options) failed") }
        return [UInt8](try Data(contentsOf: output))
    }

    /// A binary PPM: red follows x, green follows y, blue follows x + y, each plus 0...63 of noise.
    static func picture(width: Int, height: Int, seed: UInt32) -> [UInt8] {
        var state = seed
        func noise() -> Int {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Int(state >> 26)
        }
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
