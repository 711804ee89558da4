import Testing
import WebImageCore

/// SDWebImage's rules for transformed and thumbnail keys.
@Suite struct CacheKeysTests {
    @Test func theTransformerKeyGoesBeforeTheURLsPathExtension() {
        #expect(
            CacheKeys.transformedKey("http://foo/image.png?a=b#c", transformerKey: "T")
                == "http://foo/image-T.png?a=b#c")
        #expect(CacheKeys.transformedKey("https://h/a/b.jpeg", transformerKey: "Round") == "https://h/a/b-Round.jpeg")
        #expect(CacheKeys.transformedKey("https://h/a/b?x=1", transformerKey: "T") == "https://h/a/b?x=1-T")
    }

    @Test func plainKeysAndFileURLs() {
        #expect(CacheKeys.transformedKey("image", transformerKey: "T") == "image-T")
        #expect(CacheKeys.transformedKey("image.png", transformerKey: "T") == "image-T.png")
        #expect(CacheKeys.transformedKey("/tmp/a/photo.jpg", transformerKey: "T") == "/tmp/a/photo-T.jpg")
        #expect(CacheKeys.transformedKey("file:///tmp/photo.jpg", transformerKey: "T") == "file:///tmp/photo-T.jpg")
        #expect(CacheKeys.transformedKey("my image", transformerKey: "T") == "my image-T")
    }

    @Test func thumbnailKeysNameTheirSizeAndAspect() {
        let size = ThumbnailSize(width: 400, height: 300)
        #expect(CacheKeys.thumbnailTransformerKey(size) == "Thumbnail(400x300,1)")
        #expect(
            CacheKeys.thumbnailKey("http://foo/image.png?a=b#c", size: size)
                == "http://foo/image-Thumbnail(400x300,1).png?a=b#c")
        #expect(
            CacheKeys.thumbnailKey("image", size: ThumbnailSize(width: 10, height: 20, preservesAspectRatio: false))
                == "image-Thumbnail(10x20,0)")
    }
}
