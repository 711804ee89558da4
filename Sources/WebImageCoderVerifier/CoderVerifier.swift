import WebImageCore

/// Checks that an ``ImageCoder`` keeps the coder contract on valid files and on broken ones,
/// in the spirit of swift-nio's `ByteToMessageDecoderVerifier`.
///
/// For each fixture (a valid file in one of the coder's formats) it checks sniffing,
/// probe/decode agreement, incremental decoding fed 1, 7 and all bytes at a time,
/// truncation at many offsets, seeded noise, thumbnails and the encode/decode round trip
/// (see ``ConformanceCheck``), then, once per coder, hostile inputs built for its formats:
/// declared sizes far above the limit with a thumbnail box, huge animated screens, many frames. Broken input must fail with an ``ImageCodingError`` of an
/// expected kind: never `.internalError`, never another error type. The verifier itself
/// never traps; a coder that crashes takes the process with it, which is a failure too.
public enum CoderVerifier {
    /// Runs every check on every fixture and returns what failed.
    ///
    /// Stops starting new checks once `options.timeLimit` has passed; those are listed in
    /// ``ConformanceReport/skipped``.
    public static func verify(
        coder: any ImageCoder, fixtures: [VerifierFixture], options: VerifierOptions = VerifierOptions()
    ) -> ConformanceReport {
        let run = VerificationRun(coder: coder, options: options)
        for fixture in fixtures {
            FixtureVerification(run: run, fixture: fixture).verify()
        }
        if options.checksHostileInputs { HostileInputVerification(run: run).verify() }
        return run.report
    }
}
