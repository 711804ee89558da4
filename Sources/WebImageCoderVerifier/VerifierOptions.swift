import WebImageCore

/// How thoroughly ``CoderVerifier`` checks a coder.
public struct VerifierOptions: Sendable {
    /// Piece sizes for feeding each fixture to the incremental decoder, in bytes; `Int.max`
    /// feeds the whole file in one piece, sizes below 1 are ignored. Default 1, 7 and the
    /// whole file.
    public var chunkSizes: [Int] = [1, 7, .max]
    /// Files up to this many bytes are truncated after every byte; larger files at
    /// ``truncationSamples`` offsets spread over the file plus the first 32 bytes. Default 1024.
    public var exhaustiveTruncationLimit = 1024
    /// How many offsets spread over a large file are truncated at. Default 64.
    public var truncationSamples = 64
    /// Seeds of the noise rounds: each round decodes random bytes after the fixture's first
    /// bytes, the fixture with bits flipped and the fixture with bytes overwritten. Default 1...8.
    public var noiseSeeds: [UInt32] = Array(1...8)
    /// Thumbnail boxes in pixels (as shown), each tried with and without aspect
    /// preservation. Default 1×1, 16×16, 64×48 and 10000×10000.
    public var thumbnailBoxes: [(width: Int, height: Int)] = [(1, 1), (16, 16), (64, 48), (10_000, 10_000)]
    /// The error kinds a truncated or corrupted file may fail with. Default unsupported
    /// format, corrupt data, truncated data and too large.
    public var malformedInputErrors: Set<ImageCodingError.Kind> = [
        .unsupportedFormat, .corruptData, .truncatedData, .tooLarge,
    ]
    /// Pixel limit (width × height) for decoding truncated and corrupted files, so that a
    /// corrupted header cannot make the coder allocate gigabytes; raised to the fixture's own
    /// pixel count when that is larger. Default 4 megapixels.
    public var malformedInputPixelLimit = 4_000_000
    /// How long one `verify` call may run before the remaining checks are skipped (listed in
    /// ``ConformanceReport/skipped``). Default 10 seconds.
    public var timeLimit: Duration = .seconds(10)
    /// Failures kept per fixture and check; the rest are counted in one last failure. Default 5.
    public var failuresPerCheck = 5
    /// Runs the hostile-input checks (``ConformanceCheck/hostileSize``,
    /// ``ConformanceCheck/hugeAnimatedScreen``, ``ConformanceCheck/manyFrames``) once per
    /// coder, for the formats ``HostileImages`` can build (png, gif, webp). Default true.
    public var checksHostileInputs = true
    /// The pixel limit of the hostile-input decodes. Default 1 megapixel.
    public var hostilePixelLimit = 1_000_000
    /// The byte limit of the hostile-input decodes: no host allocation may be larger. Default 64 MiB.
    public var hostileByteLimit = 64 << 20

    public init() {}
}
