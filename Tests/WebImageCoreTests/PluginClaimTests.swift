import Foundation
import Testing
import WebImageCore

@Suite struct PluginClaimTests {
    @Test func namesCollideIgnoringCaseAndOnlyWithinOneKind() {
        #expect(PluginClaim(.fileExtension, "PNG").collides(with: PluginClaim(.fileExtension, "png")))
        #expect(!PluginClaim(.fileExtension, "png").collides(with: PluginClaim(.format, "png")))
        #expect(!PluginClaim(.format, "png").collides(with: PluginClaim(.format, "apng")))
    }

    @Test(arguments: [
        ("89504e47", true), ("89504e470d0a1a0a0000000d", true), ("89??4e47", true), ("????", true),
        ("89504e48", false), ("ffd8ff", false),
    ])
    func signaturesCollideWhenOneFileStartMatchesBoth(pattern: String, collides: Bool) {
        let png = PluginClaim(.signature, "89504e470d0a1a0a")
        #expect(PluginClaim(.signature, pattern).collides(with: png) == collides)
        #expect(png.collides(with: PluginClaim(.signature, pattern)) == collides)
    }

    @Test func signaturesMeetingOnlyWhereOneMatchesAnyByteDoNotCollide() {
        let heic = PluginClaim(.signature, "????????6674797068656963")
        #expect(!PluginClaim(.signature, "5036").collides(with: heic))
        #expect(!PluginClaim(.signature, "89504e47").collides(with: heic))
        #expect(PluginClaim(.signature, "????????66747970").collides(with: heic))
        #expect(PluginClaim(.signature, "??").collides(with: heic))
    }

    @Test func aManifestClaimsItsNameFormatsSchemesAndTransformers() throws {
        let json = """
            { "name": "many", "version": "1.0.0", "abi_version": 1, "library": "libmany.so",
              "coder": { "formats": [{ "name": "fmt", "mime_types": ["image/x-fmt"], "extensions": ["f1", "f2"],
                                       "signatures": ["0102"], "capabilities": ["decode"] }] },
              "loader": { "schemes": ["gopher"] }, "transformer": { "names": ["swirl"] } }
            """
        let manifest = try JSONDecoder().decode(PluginManifest.self, from: Data(json.utf8))
        #expect(
            manifest.claims.map(\.description) == [
                "plugin name 'many'", "format 'fmt'", "MIME type 'image/x-fmt'", "extension 'f1'", "extension 'f2'",
                "signature 0102", "loader scheme 'gopher'", "transformer name 'swirl'",
            ])
    }
}
