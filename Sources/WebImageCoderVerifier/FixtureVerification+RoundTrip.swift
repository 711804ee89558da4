import WebImageCore

extension FixtureVerification {
    /// Encodes the full decode in the fixture's format and decodes the result again: same
    /// format, same size.
    func checkRoundTrip(_ baseline: Baseline) {
        let pixels = baseline.image.pixels
        let formatName = baseline.format.name
        let encoded: EncodedImageData
        do {
            encoded = try coder.encode(pixels, request: EncodeRequest(format: formatName))
        } catch {
            fail(.roundTrip, "encode as \(formatName) \(run.unexpected(error))")
            return
        }
        do {
            let image = try encoded.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
            if image.format != formatName {
                fail(.roundTrip, "the encoded \(formatName) decodes as '\(image.format)'")
            }
            if (image.width, image.height) != (pixels.width, pixels.height) {
                fail(
                    .roundTrip,
                    "encoded \(pixels.width)x\(pixels.height), decoded \(image.width)x\(image.height)")
            }
        } catch {
            fail(.roundTrip, "decoding the encoded \(formatName) \(run.unexpected(error))")
        }
    }
}
