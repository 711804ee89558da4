/// The checks ``CoderVerifier`` runs on every fixture.
public enum ConformanceCheck: String, Sendable, CaseIterable, Codable {
    /// `canDecode` recognises the fixture.
    case sniffing = "sniffing"
    /// `probe` reads the fixture's header and names one of the coder's formats.
    case probe = "probe"
    /// `decode` decodes the fixture.
    case decode = "decode"
    /// `probe` and `decode` agree on format, size and orientation.
    case probeDecodeAgreement = "probe-decode-agreement"
    /// A full decode with a pixel limit below the image's size fails with `.tooLarge`.
    case pixelLimit = "pixel-limit"
    /// Feeding the file 1, 7 or all bytes at a time ends in the full decode's image.
    case incremental = "incremental"
    /// Opening the file as an animation agrees with `probe`; every frame decodes at the canvas size.
    case animation = "animation"
    /// Every prefix of the file fails with a typed error (or decodes).
    case truncation = "truncation"
    /// Noise after the first bytes, bit flips and overwritten bytes fail with a typed error (or decode).
    case noise = "noise"
    /// Thumbnails fit their box and are never upscaled, from the coder and through `CodersManager`.
    case thumbnail = "thumbnail"
    /// What the coder encodes, it decodes again at the same size.
    case roundTrip = "round-trip"
    /// A header declaring far more pixels than the limit, decoded to a 64×64 thumbnail box,
    /// in full and incrementally, fails with `.tooLarge` (or gives an image within the
    /// limits) before allocating: no host allocation over the byte limit. Built for PNG, GIF
    /// and WebP (``HostileImages``).
    case hostileSize = "hostile-size"
    /// An animation of 100 frames on a 9999×9999 screen opens with its frame count, and its
    /// first frame fails with `.tooLarge` under a pixel limit and under a byte limit of
    /// 64 MiB, before the canvas is allocated. Built for GIF and WebP.
    case hugeAnimatedScreen = "huge-animated-screen"
    /// An animation of 1,000 one-pixel frames on a 16×16 screen reports every frame and its
    /// duration, and decodes its last frame at the canvas size. Built for GIF and WebP.
    case manyFrames = "many-frames"
}
