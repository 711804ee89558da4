import WebImageCore

/// Times plugin decodes of bytes already in memory, optionally interleaved with the
/// reference decoder so both sides see the same machine noise.
struct DecodeBenchmark {
    let manager: CodersManager
    let options: DecodeOptions
    let iterations: Int

    /// What one run measured.
    struct Outcome {
        /// The size of the plugin's output.
        var width = 0
        var height = 0
        var plugin = Timing()
        /// The reference side, when there is one.
        var reference: (decoder: ReferenceDecoder, timing: Timing)?
        /// Why there is no reference side, when one was asked for.
        var referenceUnavailable: String?
    }

    /// Runs one warm-up decode per side, then `iterations` timed rounds; the side that
    /// goes first alternates between rounds.
    /// - Parameter reference: the reference decoder to compare with, or nil.
    /// - Throws: ``ImageCodingError`` when the plugin cannot decode the bytes.
    func run(_ bytes: UnsafeRawBufferPointer, reference: ReferenceDecoder.Availability?) throws -> Outcome {
        var outcome = Outcome()
        let warmUp = try manager.decode(bytes, options: options)
        outcome.width = warmUp.width
        outcome.height = warmUp.height
        var referenceDecoder: ReferenceDecoder?
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
            if pluginFirst { try outcome.plugin.measure { _ = try manager.decode(bytes, options: options) } }
            if let referenceDecoder { try referenceTiming.measure { try referenceDecoder.decode(bytes) } }
            if !pluginFirst { try outcome.plugin.measure { _ = try manager.decode(bytes, options: options) } }
        }
        if let referenceDecoder { outcome.reference = (referenceDecoder, referenceTiming) }
        return outcome
    }
}
