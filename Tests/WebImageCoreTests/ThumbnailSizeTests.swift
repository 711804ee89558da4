import Testing
import WebImageCore

@Suite struct ThumbnailSizeTests {
    @Test func fitsInsideTheBoxKeepingAspectRatio() {
        let box = ThumbnailSize(width: 256, height: 256)
        #expect(box.targetSize(sourceWidth: 4000, sourceHeight: 3000) == (256, 192))
        #expect(box.targetSize(sourceWidth: 3000, sourceHeight: 4000) == (192, 256))
        #expect(box.targetSize(sourceWidth: 1920, sourceHeight: 1080) == (256, 144))
    }

    @Test func neverUpscales() {
        let box = ThumbnailSize(width: 500, height: 500)
        #expect(box.targetSize(sourceWidth: 300, sourceHeight: 200) == (300, 200))
        #expect(
            ThumbnailSize(width: 500, height: 500, preservesAspectRatio: false).targetSize(
                sourceWidth: 300, sourceHeight: 200) == (300, 200))
    }

    @Test func withoutAspectRatioIsExactlyTheBox() {
        let box = ThumbnailSize(width: 100, height: 50, preservesAspectRatio: false)
        #expect(box.targetSize(sourceWidth: 4000, sourceHeight: 3000) == (100, 50))
    }

    @Test func boxLargerInOneDirectionOnlyStillFits() {
        let box = ThumbnailSize(width: 1000, height: 100)
        #expect(box.targetSize(sourceWidth: 400, sourceHeight: 400) == (100, 100))
    }

    @Test func extremeAspectRatiosKeepAtLeastOnePixel() {
        let box = ThumbnailSize(width: 10, height: 10)
        #expect(box.targetSize(sourceWidth: 10000, sourceHeight: 1) == (10, 1))
    }

    @Test func aSideOfZeroDoesNotLimit() {
        #expect(ThumbnailSize(width: 400, height: 0).targetSize(sourceWidth: 4000, sourceHeight: 3000) == (400, 300))
        #expect(ThumbnailSize(width: 0, height: 300).targetSize(sourceWidth: 4000, sourceHeight: 3000) == (400, 300))
        #expect(ThumbnailSize(width: 0, height: 300).targetSize(sourceWidth: 200, sourceHeight: 100) == (200, 100))
        #expect(ThumbnailSize(width: 0, height: 0).targetSize(sourceWidth: 200, sourceHeight: 100) == (200, 100))
        #expect(
            ThumbnailSize(width: 400, height: 0, preservesAspectRatio: false).targetSize(
                sourceWidth: 4000, sourceHeight: 3000) == (400, 3000))
    }

    @Test func hugeBoxesDoNotOverflow() {
        #expect(ThumbnailSize(width: 10, height: Int.max).targetSize(sourceWidth: 400, sourceHeight: 200) == (10, 5))
        #expect(ThumbnailSize(width: Int.max, height: 20).targetSize(sourceWidth: 400, sourceHeight: 200) == (40, 20))
    }
}
