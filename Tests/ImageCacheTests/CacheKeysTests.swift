import Foundation
import Testing
import WebImageCore

/// Transformed, thumbnail and first-frame keys: the key, a space, the transformer key.
@Suite struct CacheKeysTests {
    @Test func theTransformerKeyFollowsTheWholeKeyAfterASpace() {
        #expect(
            CacheKeys.transformedKey("http://foo/image.png?a=b#c", transformerKey: "T")
                == "http://foo/image.png?a=b#c T")
        #expect(
            CacheKeys.transformedKey("https://h/a/b.jpeg", transformerKey: "Flip(h)-Rotate(90,fit)")
                == "https://h/a/b.jpeg Flip(h)-Rotate(90,fit)")
        #expect(CacheKeys.transformedKey("image", transformerKey: "T") == "image T")
        #expect(CacheKeys.transformedKey("file:///tmp/photo.jpg", transformerKey: "T") == "file:///tmp/photo.jpg T")
        #expect(CacheKeys.transformedKey("image.png", transformerKey: "") == "image.png")
    }

    @Test func noURLSpellsATransformedKey() throws {
        let flipped = CacheKeys.transformedKey("http://h/TestImage.png", transformerKey: "Flip(h)")
        #expect(flipped == "http://h/TestImage.png Flip(h)")
        // SDWebImage's rule gave the flipped image the key of this real URL.
        #expect(try #require(URL(string: "http://h/TestImage-Flip(h).png")).absoluteString != flipped)
        // A URL written with the space has it encoded: its key is not the transformed key.
        #expect(try #require(URL(string: flipped)).absoluteString == "http://h/TestImage.png%20Flip(h)")
        #expect(URL(fileURLWithPath: "/h/TestImage.png Flip(h)").absoluteString.contains(" ") == false)
    }

    @Test func thumbnailKeysNameTheirSizeAndAspect() {
        let size = ThumbnailSize(width: 400, height: 300)
        #expect(CacheKeys.thumbnailTransformerKey(size) == "Thumbnail(400x300,1)")
        #expect(
            CacheKeys.thumbnailKey("http://foo/image.png?a=b#c", size: size)
                == "http://foo/image.png?a=b#c Thumbnail(400x300,1)")
        #expect(
            CacheKeys.thumbnailKey("image", size: ThumbnailSize(width: 10, height: 20, preservesAspectRatio: false))
                == "image Thumbnail(10x20,0)")
        #expect(
            CacheKeys.firstFrameKey(CacheKeys.thumbnailKey("http://h/a.gif", size: size))
                == "http://h/a.gif Thumbnail(400x300,1) FirstFrame")
    }
}
