import Foundation
import Testing
import WebImageTestSupport

@Suite("webimage convert --transform")
struct ConvertTransformTests {
    /// Runs `convert FIXTURE OUT options...` with the bundled plugins.
    private func convert(
        _ fixture: String, to outputName: String, _ options: [String], in folder: PluginsFolder
    ) async throws -> (result: CommandResult, output: String) {
        let output = folder.file(outputName)
        let result = try await WebImageProcess.run(
            ["convert", Fixture.path(fixture), output] + options, plugins: folder)
        return (result, output)
    }

    /// Width and height from `info --json` of a file.
    private func size(of path: String, in folder: PluginsFolder) async throws -> [Int?] {
        let result = try await WebImageProcess.run(["info", path, "--json"], plugins: folder)
        let json = try result.json()
        return [json["width"] as? Int, json["height"] as? Int]
    }

    @Test("transforms apply in order and the text names the pipeline's key")
    func transformsInOrder() async throws {
        let folder = try PluginsFolder.make()
        let (result, output) = try await convert(
            "png/rgba8.png", to: "out.png", ["--transform", "flip:h", "--transform", "rotate:90:fit"], in: folder)
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(
            result.outputLines == [
                "\(Fixture.path("png/rgba8.png")) (png 13x7) -> \(output) (png 7x13) "
                    + "transformed by Flip(h)-Rotate(90,fit)"
            ])
        #expect(try await size(of: output, in: folder) == [7, 13])
    }

    @Test("--json reports the output size, frames and the transformer key")
    func jsonReport() async throws {
        let folder = try PluginsFolder.make()
        let (result, output) = try await convert(
            "png/rgba8.png", to: "out.webp",
            ["--transform", "resize:20x10:fit", "--transform", "blur:1.5", "--json"], in: folder)
        #expect(result.status == 0)
        let json = try result.json()
        #expect(json["width"] as? Int == 20)
        #expect(json["height"] as? Int == 10)
        #expect(json["frames"] as? Int == 1)
        #expect(json["format"] as? String == "webp")
        #expect(json["input_width"] as? Int == 13)
        #expect(json["transformer_key"] as? String == "Resize(20x10,fit)-Blur(1.5)")
        #expect(try await size(of: output, in: folder) == [20, 10])
    }

    @Test("--json without transforms reports an empty key")
    func jsonWithoutTransforms() async throws {
        let folder = try PluginsFolder.make()
        let (result, _) = try await convert("png/rgba8.png", to: "out.png", ["--json"], in: folder)
        #expect(result.status == 0)
        #expect(try result.json()["transformer_key"] as? String == "")
    }

    @Test("transforms run after EXIF orientation: 61x43 shown as 43x61, cropped to 43x50")
    func afterOrientation() async throws {
        let folder = try PluginsFolder.make()
        let (result, output) = try await convert(
            "jpeg/orientation-6.jpg", to: "out.png", ["--transform", "crop:0,0,50,50"], in: folder)
        #expect(result.status == 0)
        #expect(try await size(of: output, in: folder) == [43, 50])
    }

    @Test("transforms run after --thumbnail: 13x7 becomes 8x4, cropped to 4x2")
    func afterThumbnail() async throws {
        let folder = try PluginsFolder.make()
        let (result, output) = try await convert(
            "png/rgba8.png", to: "out.png", ["--thumbnail", "8x8", "--transform", "crop:0,0,4,2"], in: folder)
        #expect(result.status == 0)
        #expect(try await size(of: output, in: folder) == [4, 2])
    }

    @Test("an animation stays animated with every frame transformed")
    func animationFrames() async throws {
        let folder = try PluginsFolder.make()
        let (result, output) = try await convert(
            "gif/anim.gif", to: "out.gif",
            ["--transform", "resize:4x4:fill", "--transform", "rotate:90:fit", "--json"],
            in: folder)
        #expect(result.status == 0)
        let json = try result.json()
        #expect(json["frames"] as? Int == 4)
        #expect(json["transformer_key"] as? String == "Resize(4x4,fill)-Rotate(90,fit)")
        let info = try await WebImageProcess.run(["info", output, "--json"], plugins: folder).json()
        #expect(info["frames"] as? Int == 4)
        #expect(info["loop_count"] as? Int == 3)
        #expect(info["width"] as? Int == 4 && info["height"] as? Int == 4)
    }

    @Test(
        "a bad spec is one error line, exit status 1, no output file",
        arguments: [
            ("resize:0x5", "error: invalid --transform 'resize:0x5': a resize needs a positive size, not 0×5"),
            (
                "resize:10x10:stretch",
                "error: invalid --transform 'resize:10x10:stretch': expected resize:WxH[:fill|fit|fill-crop]"
            ),
            ("crop:1,2,3", "error: invalid --transform 'crop:1,2,3': expected crop:X,Y,W,H"),
            ("crop:0,0,-4,4", "error: invalid --transform 'crop:0,0,-4,4': a crop needs a positive size, not -4×4"),
            ("blur:-1", "error: invalid --transform 'blur:-1': a blur radius must be 0 or more, not -1.0"),
            ("flip:x", "error: invalid --transform 'flip:x': expected flip:h|v|hv"),
            ("rotate:abc", "error: invalid --transform 'rotate:abc': expected rotate:DEGREES[:fit]"),
            ("tint:#12", "error: invalid --transform 'tint:#12': invalid colour '#12': expected #RRGGBB or #RRGGBBAA"),
            (
                "round-corner:-2",
                "error: invalid --transform 'round-corner:-2': a corner radius must be 0 or more, not -2.0"
            ),
            (
                "sepia:amount=3",
                "error: no transformer named 'sepia' in --transform 'sepia:amount=3'; "
                    + "the built-in transformers are resize, crop, round-corner, flip, rotate, tint, blur"
            ),
            (
                "crop:100,100,5,5",
                "error: cannot transform '\(Fixture.path("png/rgba8.png"))' with Crop(100,100,5,5): "
                    + "the crop 5×5 at (100, 100) is empty on a 13×7 image"
            ),
        ])
    func badSpec(spec: String, expectedError: String) async throws {
        let folder = try PluginsFolder.make()
        let (result, output) = try await convert("png/rgba8.png", to: "out.png", ["--transform", spec], in: folder)
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(result.errorLines == [expectedError])
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}

@Suite("webimage bench transform")
struct BenchTransformTests {
    @Test("--json reports sizes, the key and the iterations")
    func jsonReport() async throws {
        let folder = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            [
                "bench", "transform", Fixture.path("png/rgba8.png"), "--transform", "resize:6x4:fill",
                "--transform", "blur:2", "--iterations", "3", "--json",
            ], plugins: folder)
        #expect(result.status == 0)
        let json = try result.json()
        #expect(json["width"] as? Int == 13 && json["height"] as? Int == 7)
        #expect(json["output_width"] as? Int == 6 && json["output_height"] as? Int == 4)
        #expect(json["transformer_key"] as? String == "Resize(6x4,fill)-Blur(2)")
        #expect(json["iterations"] as? Int == 3)
        #expect(json["pixel_format"] as? String == "RGBA8")
        let minimum = try #require(json["min_ms"] as? Double)
        let median = try #require(json["median_ms"] as? Double)
        #expect(minimum > 0 && minimum <= median)
    }

    @Test("without --transform it is an error")
    func needsATransform() async throws {
        let folder = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["bench", "transform", Fixture.path("png/rgba8.png")], plugins: folder)
        #expect(result.status == 1)
        #expect(result.errorLines == ["error: bench transform needs at least one --transform SPEC"])
    }
}
