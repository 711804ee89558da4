import WebImageCore

extension FixtureVerification {
    /// For every box, with and without aspect preservation: the coder's own scaled decode
    /// lies between the box's fit and the full size (never upscaled), and `CodersManager`
    /// with only this coder registered returns exactly ``ThumbnailSize/targetSize(sourceWidth:sourceHeight:)``
    /// of the size as shown.
    func checkThumbnails(_ baseline: Baseline) {
        let info = baseline.info
        let manager = CodersManager()
        manager.register(coder)
        for box in run.options.thumbnailBoxes {
            for preservesAspectRatio in [true, false] {
                let thumbnail = ThumbnailSize(
                    width: box.width, height: box.height, preservesAspectRatio: preservesAspectRatio)
                let boxName = "\(box.width)x\(box.height)\(preservesAspectRatio ? "" : " (no aspect)")"
                checkCoderThumbnail(thumbnail, boxName: boxName, info: info)
                checkManagerThumbnail(thumbnail, boxName: boxName, info: info, manager: manager)
            }
        }
    }

    /// The coder asked for the box `CodersManager` would pass (the target size in stored
    /// pixels; the box itself when it is at least the image's size): at least that target
    /// (or the full size, on a side where the target is larger), at most the full size.
    private func checkCoderThumbnail(_ thumbnail: ThumbnailSize, boxName: String, info: ImageInfo) {
        let swaps = info.orientation.swapsWidthAndHeight
        let stored = ThumbnailSize(
            width: swaps ? thumbnail.height : thumbnail.width, height: swaps ? thumbnail.width : thumbnail.height,
            preservesAspectRatio: thumbnail.preservesAspectRatio)
        let target = stored.targetSize(sourceWidth: info.width, sourceHeight: info.height)
        let box = target == (info.width, info.height) ? (stored.width, stored.height) : target
        let image: DecodedImage
        do {
            image = try fixture.bytes.withUnsafeBytes {
                try coder.decode($0, request: DecodeRequest(thumbnailBox: box))
            }
        } catch {
            fail(.thumbnail, "box \(boxName): coder's decode \(run.unexpected(error))")
            return
        }
        if image.width > info.width || image.height > info.height {
            fail(
                .thumbnail,
                "box \(boxName): coder asked for \(box.0)x\(box.1) returned \(image.width)x\(image.height), "
                    + "larger than the image (\(info.width)x\(info.height))")
        } else if image.width < min(target.width, info.width) || image.height < min(target.height, info.height) {
            fail(
                .thumbnail,
                "box \(boxName): coder asked for \(box.0)x\(box.1) returned \(image.width)x\(image.height), "
                    + "smaller than the target \(target.width)x\(target.height)")
        }
    }

    /// The finished thumbnail through `CodersManager`: exactly the target size as shown.
    private func checkManagerThumbnail(
        _ thumbnail: ThumbnailSize, boxName: String, info: ImageInfo, manager: CodersManager
    ) {
        let target = thumbnail.targetSize(sourceWidth: info.orientedWidth, sourceHeight: info.orientedHeight)
        do {
            let image = try manager.decode(fixture.bytes, options: DecodeOptions(thumbnail: thumbnail))
            if (image.width, image.height) != target {
                fail(
                    .thumbnail,
                    "box \(boxName): CodersManager returned \(image.width)x\(image.height), expected \(target.width)x\(target.height)"
                )
            }
        } catch {
            fail(.thumbnail, "box \(boxName): CodersManager's decode \(run.unexpected(error))")
        }
    }
}
