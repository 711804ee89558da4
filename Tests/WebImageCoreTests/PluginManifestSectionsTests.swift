import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// Manifests nested by kind, and the flat coder form third parties already ship.
@Suite struct PluginManifestSectionsTests {
    static let nestedPNG = """
        { "name": "png", "version": "1.0.0", "abi_version": 1, "library": "libWebImagePNG.so",
          "coder": { "priority": 100,
                     "formats": [{ "name": "png", "mime_types": ["image/png"], "extensions": ["png"],
                                   "signatures": ["89504e470d0a1a0a"], "capabilities": ["decode"] }] } }
        """
    static let flatPNG = """
        { "name": "png", "version": "1.0.0", "abi_version": 1, "library": "libWebImagePNG.so",
          "kinds": ["coder"], "priority": 100,
          "formats": [{ "name": "png", "mime_types": ["image/png"], "extensions": ["png"],
                        "signatures": ["89504e470d0a1a0a"], "capabilities": ["decode"] }] }
        """

    func load(_ json: String) throws -> PluginManifest {
        let folder = try TemporaryDirectory()
        return try PluginManifest.load(from: folder.write("m.json", json))
    }

    func fault(_ json: String) throws -> PluginFault {
        try #require(throws: PluginFault.self) { try load(json) }
    }

    @Test func nestedCoderSectionReadsLikeTheFlatForm() throws {
        let nested = try load(Self.nestedPNG)
        let flat = try load(Self.flatPNG)
        #expect(nested.kinds == [.coder])
        #expect(nested.coder?.priority == 100)
        #expect(nested.coder?.formats.map(\.name) == ["png"])
        #expect(nested.signatures.map(\.description) == ["89504e470d0a1a0a"])
        #expect(flat.coder == nested.coder)
        #expect(flat.kinds == nested.kinds)
        #expect(flat.priority == 100)
        #expect(nested.loader == nil && nested.memoryCache == nil && nested.diskCache == nil)
        #expect(nested.transformer == nil)
    }

    @Test func everyKindHasItsSection() throws {
        let manifest = try load(
            """
            { "name": "multi", "version": "2.0.0", "abi_version": 1, "library": "libmulti.so",
              "loader": { "schemes": ["http", "https"] }, "memory_cache": {}, "disk_cache": {},
              "transformer": { "names": ["sepia", "pixelate"] } }
            """)
        #expect(manifest.kinds == [.loader, .memoryCache, .diskCache, .transformer])
        #expect(manifest.loader?.schemes == ["http", "https"])
        #expect(manifest.transformer?.names == ["sepia", "pixelate"])
        #expect(manifest.coder == nil)
        #expect(manifest.priority == 0)
        #expect(manifest.formats.isEmpty)
    }

    @Test func aKindsListMustNameTheSections() throws {
        let unlisted = try fault(
            """
            { "name": "a", "version": "1", "abi_version": 1, "library": "liba.so", "kinds": ["loader"],
              "loader": { "schemes": ["file"] }, "disk_cache": {} }
            """)
        #expect(unlisted.reason == .invalidManifest)
        #expect(
            unlisted.detail
                == "field 'kinds' is invalid: the manifest has sections for [disk-cache] that it does not list")
        let missing = try fault(
            """
            { "name": "a", "version": "1", "abi_version": 1, "library": "liba.so", "kinds": ["loader", "transformer"],
              "loader": { "schemes": ["file"] } }
            """)
        #expect(
            missing.detail == "field 'kinds' is invalid: it lists [transformer] but the manifest has no section for it")
    }

    @Test(arguments: [
        (
            #"{ "name": "a", "version": "1", "abi_version": 1, "library": "liba.so" }"#,
            "no kind: add a 'coder', 'loader', 'memory_cache', 'disk_cache' or 'transformer' section"
        ),
        (
            #"{ "name": "a", "version": "1", "abi_version": 1, "library": "liba.so", "loader": { "schemes": [] } }"#,
            "a loader must list at least one scheme"
        ),
        (
            #"{ "name": "a", "version": "1", "abi_version": 1, "library": "liba.so", "transformer": { "names": [] } }"#,
            "a transformer must list at least one name"
        ),
        (
            #"{ "name": "a", "version": "1", "abi_version": 1, "library": "liba.so", "coder": { "formats": [] } }"#,
            "a coder must list at least one format"
        ),
        (
            #"{ "name": "a", "version": "1", "abi_version": 1, "library": "liba.so", "loader": {} }"#,
            "missing field 'loader.schemes'"
        ),
    ])
    func brokenSectionsAreFaultsWithAReason(json: String, detail: String) throws {
        let fault = try fault(json)
        #expect(fault.reason == .invalidManifest)
        #expect(fault.detail == detail)
    }

    @Test func bothFormsAtOnceAreRefused() throws {
        let json = Self.nestedPNG.replacingOccurrences(of: "\"coder\":", with: "\"priority\": 5, \"coder\":")
        let fault = try fault(json)
        #expect(fault.reason == .invalidManifest)
        #expect(fault.detail.contains("beside a 'coder' section; use one form"), "\(fault.detail)")
    }

    @Test func encodingWritesTheNestedForm() throws {
        let flat = try load(Self.flatPNG)
        let folder = try TemporaryDirectory()
        let encoded = try String(decoding: JSONEncoder().encode(flat), as: UTF8.self)
        #expect(!encoded.contains("\"kinds\""))
        #expect(try PluginManifest.load(from: folder.write("again.json", encoded)) == flat)
    }
}
