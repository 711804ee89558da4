import WebImageCore

/// Times plugin decodes of bytes already in memory, optionally interleaved with the
/// reference decoder so both sides see the same machine noise.
struct DecodeBenchmark {
    let manager: CodersManager
    let options: DecodeOptions
    let iterations: Int
    /// Decode every frame of an animation (each a composited canvas) instead of the first.
    var allFrames = false

    /// What one run measured.
    struct Outcome {
        /// The size of the plugin's output.
        var width = 0
        var height = 0
        var plugin = Timing()
        /// The reference side, when there is one.
        var reference: (decoder: any BenchmarkReference, timing: Timing)?
        /// Why there is no reference side, when one was asked for.
        var referenceUnavailable: String?
    }

    /// Runs one warm-up decode per side, then `iterations` timed rounds; the side that
    /// goes first alternates between rounds.
    /// - Parameter reference: the reference decoder to compare with, or nil.
    /// - Parameter file: the file's bytes (an animation reads them in place, as apps' would).
    /// - Throws: ``ImageCodingError`` when the plugin cannot decode the bytes.
    func run(_ file: [UInt8], reference: BenchmarkReferenceAvailability?) throws -> Outcome {
        try file.withUnsafeBytes { try run(file, bytes: $0, reference: reference) }
    }

    private func run(_ file: [UInt8], bytes: UnsafeRawBufferPointer, reference: BenchmarkReferenceAvailability?)
        throws -> Outcome
    {
        var outcome = Outcome()
        let warmUp = try decodeThroughPlugin(file, bytes: bytes)
        outcome.width = warmUp.width
        outcome.height = warmUp.height
        var referenceDecoder: (any BenchmarkReference)?
        switch reference {
        case .available(let decoder):
            do {
                try decoder.decode(bytes)
                referenceDecoder = decoder
            } catch {
                outcome.referenceUnavailable = "\(error)"
            }
        case .unavailable(let reason): outcome.referenceUnavailable = reason
        case nil: break
        }
        var referenceTiming = Timing()
        for round in 0..<iterations {
            let pluginFirst = round.isMultiple(of: 2)
            if pluginFirst { try outcome.plugin.measure { _ = try decodeThroughPlugin(file, bytes: bytes) } }
            if let referenceDecoder { try referenceTiming.measure { try referenceDecoder.decode(bytes) } }
            if !pluginFirst { try outcome.plugin.measure { _ = try decodeThroughPlugin(file, bytes: bytes) } }
        }
        if let referenceDecoder { outcome.reference = (referenceDecoder, referenceTiming) }
        return outcome
    }

    /// One timed unit of plugin work: the image (or, with ``allFrames``, every frame of the
    /// animation); returns the last image decoded.
    private func decodeThroughPlugin(_ file: [UInt8], bytes: UnsafeRawBufferPointer) throws -> DecodedImage {
        guard allFrames else { return try manager.decode(bytes, options: options) }
        let animation = try manager.openAnimation(file)
        var last: DecodedImage?
        for index in 0..<animation.info.frameCount {
            last = try manager.decodeFrame(index, of: animation, options: options)
        }
        guard let last else { throw ImageCodingError(.corruptData, "the animation has no frames") }
        return last
    }
}
