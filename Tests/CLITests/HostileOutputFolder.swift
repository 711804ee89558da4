import Foundation
import Testing
import WebImageTestSupport

/// An output folder two levels down (`top/mid/out`) for URLs named to escape it: a file
/// `top/escape.png` that `..%2f..%2fescape.png` would overwrite, and an `out/badge.png`
/// already there, both holding `precious`.
struct HostileOutputFolder {
    /// Last path segments a hostile server may use (after `/as/badge.png/`, served as badge.png).
    static let segments = [
        "1/2/..%2f..%2fescape.png", "line%0abreak.png", "soh%01byte.png", "nul%00byte.png", "noextension",
        String(repeating: "x", count: 300) + ".png", "badge.png", "photo.JPG", "1/%2e%2e", "",
    ]

    let root: TemporaryDirectory
    /// `top/mid/out`.
    let path: String
    let precious = Array("precious".utf8)

    init() throws {
        root = try TemporaryDirectory()
        path = root.file("top/mid/out")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try root.write("top/escape.png", precious)
        try root.write("top/mid/out/badge.png", precious)
    }

    /// The URLs of ``segments`` on `server`.
    func urls(_ server: NginxServer) -> [String] { Self.segments.map { server.http + "/as/badge.png/" + $0 } }

    /// The bytes of `name` in the output folder.
    func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "/" + name)))
    }

    /// Expects the folder to hold `names` and the untouched `badge.png`, and nothing outside
    /// it written or replaced.
    func expectOnly(_ names: [String]) throws {
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).sorted() == (names + ["badge.png"]).sorted())
        #expect(try bytes("badge.png") == precious)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: root.file("top/escape.png")))) == precious)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: root.file("top")).sorted() == ["escape.png", "mid"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.file("top/mid")) == ["out"])
    }
}
