import WebImageCore

/// The hostile-input checks of one ``CoderVerifier/verify(coder:fixtures:options:)`` call:
/// files from ``HostileImages`` for each of the coder's formats it can build, decoded with
/// small limits through a ``RecordingAllocator``.
struct HostileInputVerification {
    let run: VerificationRun

    var coder: any ImageCoder { run.coder }
    var options: VerifierOptions { run.options }

    /// The thumbnail box of the hostile-size decodes, in stored pixels.
    static let thumbnailBox = (width: 64, height: 64)
    /// How long one hostile decode may run (its request's deadline): `.timedOut` is accepted.
    static let timeLimit = Duration.seconds(5)
    /// What a hostile decode may fail with.
    static let allowedErrors: Set<ImageCodingError.Kind> = [.tooLarge, .corruptData, .truncatedData, .timedOut]

    func verify() {
        let names = Set(coder.formats.map(\.name))
        if names.contains("png") {
            checkHostileSize("hostile png (2147483647x135)", HostileImages.png(width: 2_147_483_647, height: 135))
            checkHostileSize("hostile png (1000000x1000000)", HostileImages.png(width: 1_000_000, height: 1_000_000))
        }
        if names.contains("gif") {
            checkHostileSize("hostile gif (65535x65535)", HostileImages.gif(width: 65535, height: 65535, frames: 1))
            checkAnimations(format: "gif") { HostileImages.gif(width: UInt16($0), height: UInt16($1), frames: $2) }
        }
        if names.contains("webp") {
            checkHostileSize(
                "hostile webp (16777216x256)", HostileImages.webp(width: 16_777_216, height: 256, frames: 1))
            checkAnimations(format: "webp") { HostileImages.webp(width: UInt32($0), height: UInt32($1), frames: $2) }
        }
    }

    /// The request of a hostile decode: small limits, a deadline, memory from `allocator`.
    func request(_ allocator: RecordingAllocator, thumbnail: Bool) -> DecodeRequest {
        var request = DecodeRequest(
            thumbnailBox: thumbnail ? Self.thumbnailBox : nil, maxPixelCount: options.hostilePixelLimit,
            allocator: allocator.allocator)
        request.maxByteCount = options.hostileByteLimit
        request.deadline = .after(Self.timeLimit)
        return request
    }

    /// The allocator of a hostile decode: it records every request and refuses (answers nil to)
    /// one over the byte limit instead of allocating it, so that a coder that sizes its buffer
    /// from a hostile header and asks for many gigabytes is reported, not given them (some
    /// allocators, ThreadSanitizer's for one, end the process on such a request).
    func boundedAllocator() -> RecordingAllocator {
        RecordingAllocator(refusingRequestsOver: options.hostileByteLimit)
    }

    /// Runs `body`, which must end in an allowed error or an image within the limits, with
    /// no host allocation over the byte limit.
    func expectBounded(
        _ check: ConformanceCheck, _ name: String, _ operation: String,
        _ body: (RecordingAllocator) throws -> DecodedImage?
    ) {
        let allocator = boundedAllocator()
        do {
            if let image = try body(allocator), image.width * image.height > options.hostilePixelLimit {
                run.fail(
                    check, fixture: name,
                    "\(operation) returned \(image.width)x\(image.height), over the limit of "
                        + "\(options.hostilePixelLimit) pixels")
            }
        } catch {
            if let problem = run.problem(with: error, allowed: Self.allowedErrors) {
                run.fail(check, fixture: name, "\(operation) \(problem)")
            }
        }
        if allocator.largestRequest > options.hostileByteLimit {
            run.fail(
                check, fixture: name,
                "\(operation) asked the host for \(allocator.largestRequest) bytes, over the limit of "
                    + "\(options.hostileByteLimit) bytes")
        }
    }

    /// A declared size far above the limit: thumbnail decode, full decode, incremental decode.
    func checkHostileSize(_ name: String, _ bytes: [UInt8]) {
        run.run(.hostileSize, fixture: name) {
            for thumbnail in [true, false] {
                let operation = thumbnail ? "thumbnail decode (64x64)" : "decode"
                expectBounded(.hostileSize, name, operation) { allocator in
                    try bytes.withUnsafeBytes {
                        try coder.decode($0, request: request(allocator, thumbnail: thumbnail))
                    }
                }
            }
            guard let progressive = coder as? any ProgressiveImageCoder else { return }
            expectBounded(.hostileSize, name, "incremental decode") { allocator in
                let decoder = try progressive.makeIncrementalDecoder(request: request(allocator, thumbnail: false))
                do {
                    try bytes.withUnsafeBytes { try decoder.append($0, isFinal: true) }
                    return try decoder.currentImage()
                } catch let error as ImageCodingError where error.kind == .needMoreData {
                    return nil
                }
            }
        }
    }

    /// A huge animated screen and an animation of many frames, built by `make(width, height, frames)`.
    func checkAnimations(format: String, _ make: (Int, Int, Int) -> [UInt8]) {
        guard let animated = coder as? any AnimatedImageCoder else { return }
        let hugeName = "hostile \(format) (100 frames on 9999x9999)"
        run.run(.hugeAnimatedScreen, fixture: hugeName) {
            let bytes = make(9999, 9999, 100)
            do {
                let animation = try animated.openAnimation(bytes)
                if animation.info.frameCount != 100 {
                    run.fail(
                        .hugeAnimatedScreen, fixture: hugeName,
                        "the animation has \(animation.info.frameCount) frames, not 100")
                }
                for byteLimited in [false, true] {
                    let allocator = boundedAllocator()
                    var request = request(allocator, thumbnail: false)
                    if byteLimited { request.maxPixelCount = 0 }
                    let limit = byteLimited ? "a byte limit of \(options.hostileByteLimit)" : "a pixel limit"
                    do {
                        let frame = try animation.decodeFrame(at: 0, request: request)
                        run.fail(
                            .hugeAnimatedScreen, fixture: hugeName,
                            "frame 0 decoded to \(frame.width)x\(frame.height) under \(limit) instead of failing")
                    } catch {
                        if let problem = run.problem(with: error, allowed: [.tooLarge]) {
                            run.fail(.hugeAnimatedScreen, fixture: hugeName, "frame 0 under \(limit) \(problem)")
                        }
                    }
                }
            } catch {
                if let problem = run.problem(with: error, allowed: [.tooLarge]) {
                    run.fail(.hugeAnimatedScreen, fixture: hugeName, "openAnimation \(problem)")
                }
            }
        }
        let manyName = "hostile \(format) (1000 frames on 16x16)"
        run.run(.manyFrames, fixture: manyName) {
            let bytes = make(16, 16, 1000)
            do {
                let info = try bytes.withUnsafeBytes { try coder.probe($0) }
                let animation = try animated.openAnimation(bytes)
                if info.frameCount != 1000 || animation.info.frameCount != 1000 {
                    run.fail(
                        .manyFrames, fixture: manyName,
                        "probe reports \(info.frameCount) frames and the animation \(animation.info.frameCount), "
                            + "not 1000")
                    return
                }
                if animation.frameDuration(at: 999) != 100 {
                    run.fail(
                        .manyFrames, fixture: manyName,
                        "frame 999 lasts \(animation.frameDuration(at: 999)) ms, not 100")
                }
                let last = try animation.decodeFrame(at: 999, request: request(boundedAllocator(), thumbnail: false))
                if (last.width, last.height) != (16, 16) {
                    run.fail(.manyFrames, fixture: manyName, "frame 999 decoded to \(last.width)x\(last.height)")
                }
            } catch {
                run.fail(.manyFrames, fixture: manyName, "\(run.unexpected(error))")
            }
        }
    }
}
