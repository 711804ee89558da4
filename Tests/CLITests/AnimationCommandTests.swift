import Foundation
import Testing
import WebImageTestSupport

@Suite("webimage with animations")
struct AnimationCommandTests {
    @Test("info lists frames, loop count and each frame's duration")
    func infoShowsDurations() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["info", Fixture.path("gif/anim.gif"), "--json"], plugins: plugins)
        #expect(result.status == 0)
        let json = try result.json()
        #expect(json["frames"] as? Int == 4)
        #expect(json["loop_count"] as? Int == 3)
        #expect(json["frame_durations_ms"] as? [Int] == [50, 100, 100, 200])
        let text = try await WebImageProcess.run(["info", Fixture.path("gif/anim.gif")], plugins: plugins)
        #expect(text.outputLines.contains("durations (ms):     50, 100, 100, 200"))
    }

    @Test("a still image has no durations")
    func stillImagesHaveNoDurations() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["info", Fixture.path("gif/static.gif"), "--json"], plugins: plugins)
        #expect(try result.json()["frame_durations_ms"] == nil)
    }

    @Test("GIF to GIF keeps frames, durations and loop count")
    func animatedConversionKeepsTheAnimation() async throws {
        let plugins = try PluginsFolder.make()
        let output = plugins.file("copy.gif")
        let result = try await WebImageProcess.run(
            ["convert", Fixture.path("gif/anim.gif"), output], plugins: plugins)
        #expect(result.status == 0)
        #expect(result.outputLines.last?.hasSuffix("(gif 8x6, 4 frames)") == true)
        let info = try await WebImageProcess.run(["info", output, "--json"], plugins: plugins).json()
        #expect(info["frames"] as? Int == 4)
        #expect(info["loop_count"] as? Int == 3)
        #expect(info["frame_durations_ms"] as? [Int] == [50, 100, 100, 200])
    }

    @Test("--frame N writes that composited frame as a still image")
    func frameOptionWritesOneFrame() async throws {
        let plugins = try PluginsFolder.make()
        let output = plugins.file("frame2.png")
        let result = try await WebImageProcess.run(
            ["convert", Fixture.path("gif/anim.gif"), output, "--frame", "2"], plugins: plugins)
        #expect(result.status == 0)
        let info = try await WebImageProcess.run(["info", output, "--json"], plugins: plugins).json()
        #expect(info["format"] as? String == "png")
        #expect(info["frames"] as? Int == 1)
        #expect(info["width"] as? Int == 8 && info["height"] as? Int == 6)
    }

    @Test("--frame beyond the last frame is one error line")
    func frameOutOfRange() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["convert", Fixture.path("gif/anim.gif"), plugins.file("x.png"), "--frame", "4"],
            plugins: plugins)
        #expect(result.status == 1)
        #expect(
            result.standardError
                == "error: --frame 4 does not exist: '\(Fixture.path("gif/anim.gif"))' has 4 frame(s)\n")
    }

    @Test("an animation converted to a still format keeps its first frame")
    func stillFormatsGetTheFirstFrame() async throws {
        let plugins = try PluginsFolder.make()
        let output = plugins.file("first.jpg")
        let result = try await WebImageProcess.run(
            ["convert", Fixture.path("gif/anim.gif"), output], plugins: plugins)
        #expect(result.status == 0)
        #expect(result.outputLines.last?.hasSuffix("(jpeg 8x6)") == true)
    }
}
