import Foundation
import Testing
import WebImageCore
import WebImageServer

@Suite("ProcessingURLParser")
struct ProcessingURLParserTests {
    static let source = "/plain/http://127.0.0.1/a.png"

    /// The request of `/sig/{options}{source}`.
    private func parse(
        _ options: String, parser: ProcessingURLParser? = nil
    ) throws -> ProcessingRequest {
        let parser = try parser ?? ProcessingURLParser(pluginTransformers: ["sepia"])
        return try parser.parse(path: "/sig" + (options.isEmpty ? "" : "/" + options) + Self.source)
    }

    @Test(
        "every option and alias has its canonical form",
        arguments: [
            ("", ""),
            ("rs:fit:256:256", "rs:fit:256:256"),
            ("resize:fit:256:256", "rs:fit:256:256"),
            ("rs:fill:300:400:0", "rs:fill:300:400"),
            ("rs:fill-down:300:400:1", "rs:fill-down:300:400:1"),
            ("rs:force:10:20:0:1", "rs:force:10:20:0:1"),
            ("rs:auto:10:20:t:true", "rs:auto:10:20:1:1"),
            ("rs:fit", ""),
            ("rs:fill", ""),
            ("rs::100", "rs:fit:100:0"),
            ("size:100:50", "rs:fit:100:50"),
            ("s:100:50:1", "rs:fit:100:50:1"),
            ("s::50:f:false", "rs:fit:0:50"),
            ("width:64", "rs:fit:64:0"),
            ("w:64", "rs:fit:64:0"),
            ("height:48", "rs:fit:0:48"),
            ("h:48", "rs:fit:0:48"),
            ("enlarge:1/w:10", "rs:fit:10:0:1"),
            ("el:t/w:10", "rs:fit:10:0:1"),
            ("el:0/w:10", "rs:fit:10:0"),
            ("el:1", ""),
            ("rs:fill:0:0:1:1", ""),
            ("quality:80", "q:80"),
            ("q:80", "q:80"),
            ("q:0", ""),
            ("blur:2", "bl:2"),
            ("bl:2.5", "bl:2.5"),
            ("bl:0", ""),
            ("rotate:90", "rot:90"),
            ("rot:-90", "rot:270"),
            ("rot:450", "rot:90"),
            ("rot:360", ""),
            ("background:ff8000", "bg:ff8000"),
            ("bg:FF8000", "bg:ff8000"),
            ("bg:255:128:0", "bg:ff8000"),
            ("bg:", ""),
            ("cachebuster:v2", "cb:v2"),
            ("cb:v2", "cb:v2"),
            ("round-corner:8", "RoundCorner(8,all)"),
            ("round-corner:8:2:00ff00", "RoundCorner(8,all,2,#00FF00FF)"),
            ("tint:ff000080", "Tint(#FF000080)"),
            ("tint:FF0000", "Tint(#FF0000FF)"),
            ("flip:vh", "Flip(hv)"),
            ("crop:1,2,30,40", "Crop(1,2,30,40)"),
            ("sepia:percent=80", "sepia:percent=80"),
        ])
    func canonicalForms(options: String, canonical: String) throws {
        #expect(try parse(options).canonicalOptions == canonical)
    }

    @Test("aliases, argument defaults and option order give one canonical form; a later option overrides")
    func sameCanonicalForm() throws {
        let spellings = [
            "rs:fit:256:256/q:80/rot:90", "resize:fit:256:256/quality:80/rotate:90", "q:80/rot:90/rs:fit:256:256",
            "w:256/h:256/q:80/rotate:-270", "s:256:256:0/q:50/q:80/rot:90", "rs:fill:1:1/rs:fit:256:256/q:80/rot:90",
        ]
        for spelling in spellings {
            #expect(try parse(spelling).canonicalOptions == "rs:fit:256:256/rot:90/q:80", "\(spelling)")
        }
    }

    @Test("transformers keep their order after imgproxy's options, which take a fixed order")
    func transformerOrder() throws {
        let request = try parse("flip:h/bl:1/tint:00ff00/rs:fit:9:9/sepia:percent=80/bg:000000/cb:1")
        #expect(request.canonicalOptions == "rs:fit:9:9/bl:1/bg:000000/cb:1/Flip(h)/Tint(#00FF00FF)/sepia:percent=80")
        #expect(request.options.transformers.map(\.name) == ["flip", "tint", "sepia"])
    }

    @Test("parsed fields: the resize, rotation, blur, background, quality, format and cache buster")
    func parsedFields() throws {
        let request = try parse("rs:fill:300:400:1:0/rot:180/bl:1.5/bg:1:2:3/q:75/f:WEBP/cb:x")
        var resize = ResizeOptions()
        resize.type = .fill
        resize.width = 300
        resize.height = 400
        resize.enlarges = true
        #expect(request.options.resize == resize)
        #expect(request.options.rotation == 180)
        #expect(request.options.blurSigma == 1.5)
        #expect(request.options.background == RGBAColor(red: 1, green: 2, blue: 3))
        #expect(request.options.quality == 75)
        #expect(request.options.format == "webp")
        #expect(request.options.cacheBuster == "x")
        #expect(request.outputExtension == "webp")
        #expect(request.signature == "sig")
        #expect(request.signedPath == "/rs:fill:300:400:1:0/rot:180/bl:1.5/bg:1:2:3/q:75/f:WEBP/cb:x" + Self.source)
    }

    @Test("the signature ends at the first slash's byte, whatever characters it or the next segment hold")
    func signatureBoundary() throws {
        let request = try ProcessingURLParser().parse(path: "/sïg/w:1/plain/http://127.0.0.1/a.png")
        #expect(request.signature == "sïg")
        #expect(request.signedPath == "/w:1/plain/http://127.0.0.1/a.png")
        let unknown = try #require(throws: ProcessingURLError.self) {
            try ProcessingURLParser().parse(path: "/sïg/\u{301}x:1/plain/http://127.0.0.1/a.png")
        }
        #expect(unknown.kind == .unknownOption)
    }

    @Test("format, f and ext set the output extension; the source's extension overrides them")
    func formatAliases() throws {
        let parser = try ProcessingURLParser()
        for option in ["format:png", "f:png", "ext:png"] {
            #expect(try parser.parse(path: "/s/\(option)/plain/http://127.0.0.1/a.jpg").outputExtension == "png")
            #expect(try parser.parse(path: "/s/\(option)/plain/http://127.0.0.1/a.jpg@avif").outputExtension == "avif")
        }
        #expect(try parser.parse(path: "/s/plain/http://127.0.0.1/a.jpg").outputExtension == nil)
    }

    @Test(
        "plain and base64 sources, with and without an extension",
        arguments: [
            ("/s/plain/http://127.0.0.1/a.png", "http://127.0.0.1/a.png", nil),
            ("/s/plain/http://127.0.0.1/a.png@webp", "http://127.0.0.1/a.png", "webp"),
            ("/s/plain/http%3A%2F%2F127.0.0.1%2Fa%20b.png%3Fv%3D1@JPG", "http://127.0.0.1/a%20b.png?v=1", "jpg"),
            ("/s/plain/http%3a%2f%2f127.0.0.1%2f%C3%A9+1.png", "http://127.0.0.1/%C3%A9+1.png", nil),
            ("/s/plain/https://127.0.0.1:8443/x/y.gif", "https://127.0.0.1:8443/x/y.gif", nil),
            ("/s/aHR0cDovLzEyNy4wLjAuMS9hLnBuZw", "http://127.0.0.1/a.png", nil),
            ("/s/aHR0cDovLzEyNy4wLjAuMS9hLnBuZw.png", "http://127.0.0.1/a.png", "png"),
            ("/s/w:10/aHR0cDovLzEy/Ny4wLjAuMS9h/LnBuZw.webp", "http://127.0.0.1/a.png", "webp"),
            ("/s/aHR0cDovLzEyNy4wLjAuMS9hLnBuZw==", "http://127.0.0.1/a.png", nil),
            (
                "/s/aHR0cHM6Ly9leGFtcGxlLmNvbS9pbWFnZXMvY3VyaW9zaXR5LmpwZw.png",
                "https://example.com/images/curiosity.jpg", "png"
            ),
        ] as [(String, String, String?)])
    func sources(path: String, url: String, fileExtension: String?) throws {
        let request = try ProcessingURLParser().parse(path: path)
        #expect(request.source.absoluteString == url)
        #expect(request.outputExtension == fileExtension)
    }

    @Test(
        "every mistake is one typed error with a one-line reason",
        arguments: [
            ("sig", ProcessingURLError.Kind.malformedPath, "the path does not start with '/'"),
            ("/", .malformedPath, "the path has no signature segment"),
            ("/sig", .malformedPath, "the path has no source"),
            ("/sig/rs:fit:1:1", .malformedPath, "the path has no source"),
            (
                "/sig/rs:fit:1:1//aHR0cDovLzEyNy4wLjAuMS9hLnBuZw", .malformedPath,
                "the path has an empty segment at position 3"
            ),
            ("/sig/foo:1/plain/http://127.0.0.1/a.png", .unknownOption, "unknown option 'foo' in 'foo:1'"),
            ("/sig/g:sm/plain/http://127.0.0.1/a.png", .unknownOption, "unknown option 'g' in 'g:sm'"),
            (
                "/sig/rs:zoom:1:1/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'rs:zoom:1:1': the resizing type is one of fit, fill, fill-down, force, auto"
            ),
            (
                "/sig/rs:fit:1:1:1:1:1/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'rs:fit:1:1:1:1:1': expected resize:TYPE:WIDTH:HEIGHT:ENLARGE:EXTEND"
            ),
            (
                "/sig/s:1:2:3:4:5/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 's:1:2:3:4:5': expected size:WIDTH:HEIGHT:ENLARGE:EXTEND"
            ),
            (
                "/sig/w:-1/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'w:-1': '-1' is not a size in pixels (a whole number, at least 0)"
            ),
            (
                "/sig/h:/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'h:': expected one argument, HEIGHT"
            ),
            (
                "/sig/el:yes/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'el:yes': 'yes' is not a boolean (1, t, true, 0, f, false)"
            ),
            (
                "/sig/q:101/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'q:101': the quality is a whole number from 0 to 100"
            ),
            (
                "/sig/f:we.bp/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'f:we.bp': 'we.bp' is not a file extension"
            ),
            (
                "/sig/bl:-1/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'bl:-1': the sigma is a number of pixels, at least 0"
            ),
            (
                "/sig/rot:45/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'rot:45': the angle is a multiple of 90"
            ),
            (
                "/sig/bg:fff/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'bg:fff': expected a colour RRGGBB in hexadecimal or R:G:B"
            ),
            (
                "/sig/bg:1:2:256/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'bg:1:2:256': each of R:G:B is a whole number from 0 to 255"
            ),
            (
                "/sig/cb:/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'cb:': expected one argument, STRING"
            ),
            (
                "/sig/tint:red/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'tint:red': invalid colour '#red': expected #RRGGBB or #RRGGBBAA"
            ),
            (
                "/sig/flip:x/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'flip:x': expected flip:h|v|hv"
            ),
            (
                "/sig/crop:1,2,0,4/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'crop:1,2,0,4': a crop needs a positive size, not 0×4"
            ),
            (
                "/sig/crop:10:10/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'crop:10:10': expected crop:X,Y,W,H"
            ),
            (
                "/sig/round-corner:-1/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'round-corner:-1': a corner radius must be 0 or more, not -1.0"
            ),
            (
                "/sig/sepia:percent/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'sepia:percent': expected sepia:k=v,..."
            ),
            ("/sig/pr:nope/plain/http://127.0.0.1/a.png", .unknownPreset, "unknown preset 'nope'"),
            (
                "/sig/pr:/plain/http://127.0.0.1/a.png", .invalidArgument,
                "invalid option 'pr:': expected preset:NAME[:NAME...]"
            ),
            (
                "/sig/plain/ftp://127.0.0.1/a.png", .invalidSource,
                "the source 'ftp://127.0.0.1/a.png' is not http or https"
            ),
            (
                "/sig/ZnRwOi8vMTI3LjAuMC4xL2EucG5n", .invalidSource,
                "the source 'ftp://127.0.0.1/a.png' is not http or https"
            ),
            ("/sig/aHR0cDovLy9hLnBuZw", .invalidSource, "the source 'http:///a.png' has no host"),
            ("/sig/bm90IGEgdXJs", .invalidSource, "the source 'not a url' is not a URL"),
            ("/sig/!!!", .invalidSource, "the source '!!!' is not URL-safe base64 of a URL"),
            ("/sig/plain/", .invalidSource, "the plain source '' is not percent-encoded text"),
            (
                "/sig/plain/http://127.0.0.1/%zz", .invalidSource,
                "the plain source 'http://127.0.0.1/%zz' is not percent-encoded text"
            ),
            (
                "/sig/plain/http://127.0.0.1/a%2", .invalidSource,
                "the plain source 'http://127.0.0.1/a%2' is not percent-encoded text"
            ),
            (
                "/sig/plain/http://127.0.0.1/%FF.png", .invalidSource,
                "the plain source 'http://127.0.0.1/%FF.png' is not percent-encoded text"
            ),
            (
                "/sig/plain/http://127.0.0.1/a.png@", .invalidArgument,
                "invalid source extension: '' is not a file extension"
            ),
        ])
    func errors(path: String, kind: ProcessingURLError.Kind, message: String) throws {
        let parser = try ProcessingURLParser(pluginTransformers: ["sepia"])
        #expect(throws: ProcessingURLError(kind, message)) { try parser.parse(path: path) }
    }

    @Test("a plugin transformer's name is an unknown option when no plugin makes it")
    func pluginNameWithoutPlugin() throws {
        #expect(throws: ProcessingURLError(.unknownOption, "unknown option 'sepia' in 'sepia:percent=80'")) {
            try ProcessingURLParser().parse(path: "/s/sepia:percent=80" + Self.source)
        }
    }

    @Test("presets: default first, then each preset where it stands, a later option overriding")
    func presets() throws {
        let parser = try ProcessingURLParser(
            presets: ["default": "q:70/cb:1", "thumb": "rs:fill:100:100:1", "gray": "tint:808080/q:60"])
        #expect(try parse("", parser: parser).canonicalOptions == "q:70/cb:1")
        #expect(try parse("pr:thumb", parser: parser).canonicalOptions == "rs:fill:100:100:1/q:70/cb:1")
        #expect(
            try parse("preset:thumb:gray", parser: parser).canonicalOptions
                == "rs:fill:100:100:1/q:60/cb:1/Tint(#808080FF)")
        #expect(try parse("pr:gray/q:90", parser: parser).canonicalOptions == "q:90/cb:1/Tint(#808080FF)")
        #expect(try parse("q:90/pr:gray", parser: parser).canonicalOptions == "q:60/cb:1/Tint(#808080FF)")
    }

    @Test("presets-only refuses any option but presets")
    func presetsOnly() throws {
        let parser = try ProcessingURLParser(presets: ["thumb": "rs:fit:64:64"], presetsOnly: true)
        #expect(try parse("pr:thumb", parser: parser).canonicalOptions == "rs:fit:64:64")
        #expect(try parse("", parser: parser).canonicalOptions == "")
        #expect(throws: ProcessingURLError(.presetsOnly, "only presets are allowed, not 'rs:fit:64:64'")) {
            try parse("pr:thumb/rs:fit:64:64", parser: parser)
        }
    }

    @Test("a preset whose options do not parse, or that names a preset, is refused when the parser is made")
    func badPresets() {
        #expect(throws: ProcessingURLError(.unknownPreset, "preset 'bad': unknown option 'zoom' in 'zoom:2'")) {
            try ProcessingURLParser(presets: ["bad": "q:80/zoom:2"])
        }
        #expect(
            throws: ProcessingURLError(
                .unknownPreset, "preset 'nested': invalid option 'pr:a': presets cannot name presets")
        ) {
            try ProcessingURLParser(presets: ["nested": "pr:a"])
        }
    }
}
