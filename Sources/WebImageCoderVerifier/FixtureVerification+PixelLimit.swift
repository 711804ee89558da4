import WebImageCore

extension FixtureVerification {
    /// A full decode with a pixel limit one below the image's pixel count fails with `.tooLarge`.
    func checkPixelLimit(_ baseline: Baseline) {
        let pixelCount = baseline.info.width * baseline.info.height
        guard pixelCount > 1 else { return }
        let limit = pixelCount - 1
        do {
            let image = try fixture.bytes.withUnsafeBytes {
                try coder.decode($0, request: DecodeRequest(maxPixelCount: limit))
            }
            fail(
                .pixelLimit,
                "decode with a limit of \(limit) pixels returned \(image.width)x\(image.height) instead of failing")
        } catch {
            if let problem = run.problem(with: error, allowed: [.tooLarge]) {
                fail(.pixelLimit, "decode with a limit of \(limit) pixels \(problem)")
            }
        }
    }
}
