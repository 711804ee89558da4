import DiskCache
import Testing

/// File names: SHA-256 of the key plus the path extension by SDWebImage's rule.
@Suite struct DiskCacheFileNameTests {
    /// The SHA-256 test vector of FIPS 180-2 for "abc".
    @Test func theDigestIsTheSHA256OfTheKey() {
        #expect(
            DiskCachePlugin.fileName(forKey: "abc")
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func aURLKeyKeepsItsPathExtensionWithoutQueryOrFragment() {
        // printf %s 'http://foo/image.png?a=b#c' | sha256sum
        #expect(
            DiskCachePlugin.fileName(forKey: "http://foo/image.png?a=b#c")
                == "803eb00debeadb1339e539aa4d2d739d21f896c1db6644019334f2a924c2a4f7.png")
    }

    @Test func extensionsFollowTheKeysPath() {
        #expect(DiskCachePlugin.fileName(forKey: "image.jpeg").hasSuffix(".jpeg"))
        #expect(DiskCachePlugin.fileName(forKey: "https://host/dir.v2/image").count == 64)
        #expect(DiskCachePlugin.fileName(forKey: "https://host.com").count == 64)
        #expect(DiskCachePlugin.fileName(forKey: "https://host/a.b/c.webp#frag.ment").hasSuffix(".webp"))
        #expect(DiskCachePlugin.fileName(forKey: "my image.gif").hasSuffix(".gif"))
        #expect(DiskCachePlugin.fileName(forKey: ".hidden").count == 64)
    }

    @Test func unsafeOrTooLongExtensionsAreDropped() {
        #expect(DiskCachePlugin.fileName(forKey: "a.p%2Fng").count == 64)
        #expect(DiskCachePlugin.fileName(forKey: "a.p ng").count == 64)
        let longest = String(repeating: "x", count: 255 - 64 - 1)
        #expect(DiskCachePlugin.fileName(forKey: "a." + longest).count == 255)
        #expect(DiskCachePlugin.fileName(forKey: "a." + longest + "x").count == 64)
    }
}
