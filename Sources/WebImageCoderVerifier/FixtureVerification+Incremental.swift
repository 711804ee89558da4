import WebImageCore

extension FixtureVerification {
    /// How many times, spread over the file, the image so far is asked for while feeding.
    private static let snapshotCount = 8

    /// Feeds the file in pieces of `chunkSize` bytes: no append may fail, every image shown
    /// on the way has the full size, and the final image equals the full decode pixel for pixel.
    func checkIncremental(_ coder: any ProgressiveImageCoder, chunkSize: Int, baseline: Baseline) {
        let bytes = fixture.bytes
        let pieces = DripFeed.chunks(count: bytes.count, chunkSize: chunkSize)
        let label = chunkSize == .max ? "whole file" : "\(chunkSize)-byte pieces"
        let snapshotEvery = max(1, pieces.count / Self.snapshotCount)
        do {
            let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
            for (index, piece) in pieces.enumerated() {
                do {
                    try bytes[piece].withUnsafeBytes {
                        try decoder.append($0, isFinal: piece.upperBound == bytes.count)
                    }
                } catch {
                    fail(
                        .incremental,
                        "\(label): append at offset \(piece.lowerBound) \(run.unexpected(error))")
                    return
                }
                if index % snapshotEvery == 0 && piece.upperBound < bytes.count {
                    checkPartialImage(decoder, offset: piece.upperBound, label: label, baseline: baseline)
                }
            }
            let image: DecodedImage?
            do {
                image = try decoder.currentImage()
            } catch {
                fail(.incremental, "\(label): the image after the last byte \(run.unexpected(error))")
                return
            }
            guard let image else {
                fail(.incremental, "\(label): no image after the last byte")
                return
            }
            if image.isPartial { fail(.incremental, "\(label): the image after the last byte is still partial") }
            let full = baseline.image
            if (image.width, image.height) != (full.width, full.height) {
                fail(
                    .incremental,
                    "\(label): final image is \(image.width)x\(image.height), decode gives \(full.width)x\(full.height)"
                )
            } else if image.pixels.format != full.pixels.format
                || image.pixels.packedBytes() != full.pixels.packedBytes()
            {
                fail(.incremental, "\(label): final image's pixels differ from decode's")
            }
        } catch {
            fail(.incremental, "makeIncrementalDecoder \(run.unexpected(error))")
        }
    }

    /// The image so far, after `offset` bytes: nil, `.needMoreData`, or an image of full size.
    private func checkPartialImage(
        _ decoder: any IncrementalImageDecoder, offset: Int, label: String, baseline: Baseline
    ) {
        do {
            guard let image = try decoder.currentImage() else { return }
            if (image.width, image.height) != (baseline.info.width, baseline.info.height) {
                fail(
                    .incremental,
                    "\(label): image after \(offset) bytes is \(image.width)x\(image.height), "
                        + "expected \(baseline.info.width)x\(baseline.info.height)")
            }
        } catch {
            if let problem = run.problem(with: error, allowed: [.needMoreData]) {
                fail(.incremental, "\(label): currentImage after \(offset) bytes \(problem)")
            }
        }
    }
}
