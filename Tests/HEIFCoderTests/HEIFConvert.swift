import Foundation
import WebImageCore
import WebImageTestSupport

/// libheif's own `heif-convert` (package libheif-examples), the reference for pixel parity,
/// with its PNG read back by `Tests/Fixtures/heif/png-to-rgba.py` (python3, standard library).
enum HEIFConvert {
    struct Output {
        var width: Int
        var height: Int
        /// 8 or 16.
        var depth: Int
        /// RGBA samples, widened to Int.
        var samples: [Int]
    }

    /// `heif-convert file out.png`, then the PNG's RGBA samples.
    static func decode(_ path: String) throws -> Output {
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("heif-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: png) }
        _ = try ChildProcess.output(of: "/usr/bin/heif-convert", [path, png.path])
        // With several top-level images heif-convert writes <name>-1.png, <name>-2.png...: the first is the primary.
        let first = png.deletingPathExtension().path + "-1.png"
        defer { try? FileManager.default.removeItem(atPath: first) }
        if !FileManager.default.fileExists(atPath: png.path) {
            try FileManager.default.moveItem(atPath: first, toPath: png.path)
        }
        let script = Fixture.path("heif/png-to-rgba.py")
        let bytes = try ChildProcess.output(of: "/usr/bin/python3", [script, png.path])
        guard let newline = bytes.firstIndex(of: 0x0A) else { throw HarnessError("no header") }
        let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        guard header.count == 3 else { throw HarnessError("bad header \(header)") }
        let body = bytes[(newline + 1)...]
        let samples: [Int]
        if header[2] == 16 {
            samples = stride(from: body.startIndex, to: body.endIndex, by: 2).map {
                Int(body[$0]) << 8 | Int(body[$0 + 1])
            }
        } else {
            samples = body.map { Int($0) }
        }
        return Output(width: header[0], height: header[1], depth: header[2], samples: samples)
    }
}

/// Peak signal-to-noise ratio in dB between two sample arrays with the same maximum;
/// `.infinity` when they are equal.
func psnr(_ a: [Int], _ b: [Int], maximum: Int) -> Double {
    precondition(a.count == b.count && !a.isEmpty)
    var squared = 0.0
    for (x, y) in zip(a, b) {
        let difference = Double(x - y)
        squared += difference * difference
    }
    if squared == 0 { return .infinity }
    let mean = squared / Double(a.count)
    return 10 * log10(Double(maximum * maximum) / mean)
}

extension PixelBuffer {
    /// Every sample, row after row, widened to Int.
    var samples: [Int] {
        var result: [Int] = []
        result.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width { result += channels(x: x, y: y) }
        }
        return result
    }
}
