import WebImageCore

/// The checks of one fixture. The later checks compare against the fixture's probe and
/// full decode, so they run only when those succeed.
struct FixtureVerification {
    let run: VerificationRun
    let fixture: VerifierFixture

    var coder: any ImageCoder { run.coder }
    var name: String { fixture.name }

    /// What the valid file gives: its header and its full decode.
    struct Baseline {
        let info: ImageInfo
        let image: DecodedImage
        let format: ImageFormat
    }

    func verify() {
        run.run(.sniffing, fixture: name) {
            let recognised = fixture.bytes.withUnsafeBytes { coder.canDecode($0) }
            if !recognised, !run.pluginIsDisabled(probing: fixture.bytes) {
                fail(.sniffing, "canDecode is false for the whole file")
            }
        }
        guard let baseline = makeBaseline() else { return }
        run.run(.pixelLimit, fixture: name) { checkPixelLimit(baseline) }
        if let progressive = coder as? any ProgressiveImageCoder,
            baseline.format.capabilities.contains(.incrementalDecode)
        {
            for chunkSize in run.options.chunkSizes where chunkSize > 0 {
                let label = chunkSize == .max ? "whole file" : "\(chunkSize)-byte pieces"
                run.run(.incremental, fixture: name, label: "incremental (\(label))") {
                    checkIncremental(progressive, chunkSize: chunkSize, baseline: baseline)
                }
            }
        }
        if let animated = coder as? any AnimatedImageCoder, baseline.format.capabilities.contains(.decodeAnimation) {
            run.run(.animation, fixture: name) { checkAnimation(animated, baseline: baseline) }
        }
        run.run(.thumbnail, fixture: name) { checkThumbnails(baseline) }
        if baseline.format.capabilities.contains(.encode) {
            run.run(.roundTrip, fixture: name) { checkRoundTrip(baseline) }
        }
        run.run(.truncation, fixture: name) { checkTruncation(baseline) }
        run.run(.noise, fixture: name) { checkNoise(baseline) }
    }

    func fail(_ check: ConformanceCheck, _ message: String) {
        run.fail(check, fixture: name, message)
    }

    /// Probes and decodes the valid file and checks that the two agree.
    private func makeBaseline() -> Baseline? {
        var info: ImageInfo?
        run.run(.probe, fixture: name) {
            do {
                info = try fixture.bytes.withUnsafeBytes { try coder.probe($0) }
            } catch {
                fail(.probe, "probe \(run.unexpected(error))")
            }
        }
        var image: DecodedImage?
        run.run(.decode, fixture: name) {
            do {
                image = try fixture.bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
            } catch {
                fail(.decode, "decode \(run.unexpected(error))")
            }
        }
        guard let info, let image else { return nil }
        var format: ImageFormat?
        run.run(.probeDecodeAgreement, fixture: name) {
            format = coder.format(named: info.format)
            if format == nil {
                let names = coder.formats.map(\.name).joined(separator: ", ")
                fail(.probeDecodeAgreement, "probe names format '\(info.format)', not one of the coder's (\(names))")
            }
            if image.format != info.format {
                fail(.probeDecodeAgreement, "decode says format '\(image.format)', probe says '\(info.format)'")
            }
            if (image.width, image.height) != (info.width, info.height) {
                fail(
                    .probeDecodeAgreement,
                    "decode gives \(image.width)x\(image.height), probe says \(info.width)x\(info.height)")
            }
            if (image.sourceWidth, image.sourceHeight) != (info.width, info.height) {
                fail(
                    .probeDecodeAgreement,
                    "decode's source size is \(image.sourceWidth)x\(image.sourceHeight), "
                        + "probe says \(info.width)x\(info.height)")
            }
            if image.orientation != info.orientation {
                fail(
                    .probeDecodeAgreement,
                    "decode says orientation \(image.orientation), probe says \(info.orientation)")
            }
        }
        guard let format else { return nil }
        return Baseline(info: info, image: image, format: format)
    }
}
