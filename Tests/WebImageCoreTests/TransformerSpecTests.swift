import Testing
import WebImageCore

@Suite("TransformerSpec")
struct TransformerSpecTests {
    @Test(
        "each built-in spec makes its transformer; a colour's '#' is optional",
        arguments: [
            ("resize:64x32", "Resize(64x32,fill-crop)"),
            ("resize:64X32:fit", "Resize(64x32,fit)"),
            ("crop:1,2,3,4", "Crop(1,2,3,4)"),
            ("round-corner:8:2:#00FF00", "RoundCorner(8,all,2,#00FF00FF)"),
            ("round-corner:8:2:00ff0080", "RoundCorner(8,all,2,#00FF0080)"),
            ("flip:vh", "Flip(hv)"),
            ("rotate:90:fit", "Rotate(90,fit)"),
            ("tint:#FF0000", "Tint(#FF0000FF)"),
            ("tint:ff000080", "Tint(#FF000080)"),
            ("blur:2.5", "Blur(2.5)"),
        ])
    func builtIn(text: String, key: String) throws {
        let spec = TransformerSpec(text)
        #expect(spec.isBuiltIn)
        #expect(try spec.makeBuiltIn().transformerKey == key)
    }

    @Test(
        "a malformed or refused spec is one error whose reason names the shape or the transformer's message",
        arguments: [
            ("resize:64", "expected resize:WxH[:fill|fit|fill-crop]"),
            ("crop:1,2,3", "expected crop:X,Y,W,H"),
            ("round-corner:1:2:3:4", "expected round-corner:R[:BORDER[:[#]RRGGBB[AA]]]"),
            ("flip:x", "expected flip:h|v|hv"),
            ("rotate:90:grow", "expected rotate:DEGREES[:fit]"),
            ("tint:", "expected tint:[#]RRGGBB[AA]"),
            ("tint:red", "invalid colour '#red': expected #RRGGBB or #RRGGBBAA"),
            ("blur:-1", "a blur radius must be 0 or more, not -1.0"),
            ("sepia:percent=80", "'sepia' is not a built-in transformer"),
        ])
    func refused(text: String, reason: String) {
        let spec = TransformerSpec(text)
        let error = #expect(throws: TransformerSpecError.self) { try spec.makeBuiltIn() }
        #expect(error?.reason(name: spec.name) == reason)
    }

    @Test("a plugin spec's parameters are its k=v pairs in order")
    func pluginParameters() throws {
        let parameters = try TransformerSpec("sepia:percent=80,mode=warm").pluginParameters()
        #expect(parameters.map(\.key) == ["percent", "mode"])
        #expect(parameters.map(\.value) == ["80", "warm"])
        #expect(try TransformerSpec("sepia").pluginParameters().isEmpty)
        #expect(throws: TransformerSpecError.malformed(expected: "k=v,...")) {
            try TransformerSpec("sepia:percent").pluginParameters()
        }
        #expect(throws: TransformerSpecError.malformed(expected: "k=v,...")) {
            try TransformerSpec("sepia:a=1:b=2").pluginParameters()
        }
    }
}
