import Foundation
import Synchronization
import Testing

@testable import WebImageCore

/// What transformers state they allocate (``TransformFootprint``), the limits checked against
/// it before they run, and the concurrent byte budget.
@Suite struct TransformFootprintTests {
    static let transformers: [any ImageTransformer] = [
        try! ResizingTransformer(width: 20, height: 9, scaleMode: .fill),
        try! ResizingTransformer(width: 20, height: 9, scaleMode: .aspectFill),
        try! ResizingTransformer(width: 20, height: 9, scaleMode: .aspectFit),
        try! CroppingTransformer(x: 5, y: 3, width: 100, height: 4),
        try! RoundCornerTransformer(radius: 4),
        FlippingTransformer(horizontal: true, vertical: false),
        try! RotationTransformer(degrees: 30, fitsSize: true),
        try! RotationTransformer(degrees: 90, fitsSize: false),
        TintTransformer(color: RGBAColor(red: 255, green: 0, blue: 0, alpha: 128)),
        try! BlurTransformer(radius: 2),
        TransformerPipeline([
            try! RotationTransformer(degrees: 45, fitsSize: true),
            try! CroppingTransformer(x: 0, y: 0, width: 7, height: 7),
        ]),
    ]

    @Test("the stated output size is the output's, in both pixel formats", arguments: transformers.indices)
    func statedSizeIsTheOutputs(index: Int) throws {
        let transformer = Self.transformers[index]
        for format in PixelFormat.allCases {
            let image = try PixelBuffer(width: 37, height: 23, format: format)
            TransformCanvas.clear(image)
            let output = try transformer.transform(image)
            let footprint = transformer.footprint(width: 37, height: 23, format: format)
            #expect(
                footprint.width == output.width && footprint.height == output.height, "\(transformer.transformerKey)")
            let outputBytes = output.width * output.height * format.bytesPerPixel
            #expect(output === image ? footprint.byteCount == 0 : footprint.byteCount >= outputBytes)
        }
    }

    @Test("a transform over the byte limit is refused with the bytes it states, before it runs")
    func overTheLimitIsRefused() throws {
        let image = try PixelBuffer(width: 100, height: 50, format: .rgba8)
        var limits = TransformLimits()
        limits.maxByteCount = 19_999
        let flip = FlippingTransformer(horizontal: false, vertical: true)
        #expect(
            throws: ImageTransformError(
                .tooLarge,
                "image too large: transforming 100×50 pixels with Flip(v) needs 20000 bytes, over the limit of 19999 bytes"
            )
        ) { try flip.transform(image, limits: limits) }
        limits.maxByteCount = 20_000
        #expect(try flip.transform(image, limits: limits).height == 50)
    }

    @Test("an animation counts every output frame against the animation limit")
    func animationCountsEveryFrame() throws {
        let frame = AnimationFrame(
            image: try PixelBuffer(width: 10, height: 10, format: .rgba8), durationMilliseconds: 100)
        let animation = DecodedAnimation(frames: Array(repeating: frame, count: 5), loopCount: 0)
        var limits = TransformLimits()
        limits.maxAnimationByteCount = 1_999
        let flip = FlippingTransformer(horizontal: true, vertical: false)
        #expect(
            throws: ImageTransformError(
                .tooLarge,
                "animation too large: transforming 5 frames of 10×10 pixels with Flip(h) holds 2000 bytes, over the "
                    + "limit of 1999 bytes")
        ) { try flip.transformEveryFrame(of: animation, limits: limits) }
        limits.maxAnimationByteCount = 2_000
        #expect(try flip.transformEveryFrame(of: animation, limits: limits).frames.count == 5)
    }

    @Test("a job larger than the whole concurrent budget fails at once; smaller ones wait for each other")
    func concurrentBudget() async throws {
        let budget = ConcurrentByteBudget(byteCount: 1_000)
        var limits = TransformLimits()
        limits.concurrentBudget = budget
        let image = try PixelBuffer(width: 20, height: 20, format: .rgba8)
        #expect(
            throws: ImageTransformError(
                .tooLarge,
                "image too large: transforming 20×20 pixels with Flip(h) needs 1600 bytes, over the limit of 1000 bytes "
                    + "for everything running at once (WEBIMAGE_MAX_CONCURRENT_BYTES)")
        ) { try FlippingTransformer(horizontal: true, vertical: false).transform(image, limits: limits) }
        // Four jobs of 600 bytes: never two at once.
        let jobs = Jobs()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let job = { () throws(CancellationError) -> Void in
                        jobs.start()
                        usleep(20_000)
                        jobs.end()
                    }
                    try? budget.withReservation(600, orThrow: CancellationError(), job)
                }
            }
        }
        #expect(jobs.most.withLock { $0 } == 1)
        #expect(budget.reservedByteCount == 0)
    }

    @Test("the shared budget's size: the environment's bytes, else the larger of 1 GiB and a quarter of memory")
    func defaultBudget() {
        #expect(ConcurrentByteBudget.defaultByteCount(environment: [:], physicalMemory: 2 << 30) == 1 << 30)
        #expect(ConcurrentByteBudget.defaultByteCount(environment: [:], physicalMemory: 32 << 30) == 8 << 30)
        #expect(
            ConcurrentByteBudget.defaultByteCount(
                environment: ["WEBIMAGE_MAX_CONCURRENT_BYTES": "5000"], physicalMemory: 32 << 30) == 5000)
        #expect(
            ConcurrentByteBudget.defaultByteCount(
                environment: ["WEBIMAGE_MAX_CONCURRENT_BYTES": "lots"], physicalMemory: 2 << 30) == 1 << 30)
    }
}

/// How many jobs run at once, and the most that ever did.
private final class Jobs: Sendable {
    let running = TrackedMutex(0)
    let most = TrackedMutex(0)

    func start() {
        let now = running.withLock {
            $0 += 1
            return $0
        }
        most.withLock { $0 = max($0, now) }
    }

    func end() { running.withLock { $0 -= 1 } }
}
