import WebImageCore

extension FixtureVerification {
    /// How many bytes of the fixture a noise round keeps before its random bytes.
    private static let noiseHeaderLength = 16
    /// How many random bytes a noise round appends.
    private static let noiseLength = 4096
    /// The thumbnail box malformed files are also decoded to, in stored pixels.
    private static let malformedThumbnailBox = (width: 16, height: 16)

    /// Where the file is cut: after every byte of a small file; after each of the first 32
    /// bytes and at evenly spread offsets of a large one.
    func truncationOffsets(count: Int) -> [Int] {
        let options = run.options
        guard count > options.exhaustiveTruncationLimit else { return Array(1..<max(1, count)) }
        let headOffsets = Array(1...32)
        let spread = (0..<max(0, options.truncationSamples)).map {
            33 + (count - 34) * $0 / max(1, options.truncationSamples - 1)
        }
        return Array(Set(headOffsets + spread)).filter { $0 < count }.sorted()
    }

    /// Every prefix of the file fails with a typed error or decodes.
    func checkTruncation(_ baseline: Baseline) {
        for offset in truncationOffsets(count: fixture.bytes.count) {
            guard run.hasTimeLeft else {
                run.cutShort(.truncation, fixture: name, progress: "before the prefix of \(offset) bytes")
                return
            }
            checkMalformed(
                Array(fixture.bytes.prefix(offset)), check: .truncation, what: "prefix of \(offset) bytes",
                baseline: baseline)
        }
    }

    /// Noise after the first bytes, bit flips and overwritten bytes fail with a typed error or decode.
    func checkNoise(_ baseline: Baseline) {
        let original = fixture.bytes
        guard !original.isEmpty else { return }
        for seed in run.options.noiseSeeds {
            guard run.hasTimeLeft else {
                run.cutShort(.noise, fixture: name, progress: "before seed \(seed)")
                return
            }
            var noise = SeededNoise(seed: seed)
            let head = Array(original.prefix(Self.noiseHeaderLength))
            checkMalformed(
                head + noise.bytes(count: Self.noiseLength), check: .noise,
                what: "\(Self.noiseLength) noise bytes after the first \(head.count) (seed \(seed))", baseline: baseline
            )

            var flipped = original
            var flips: [String] = []
            for _ in 0...noise.next(below: 4) {
                let offset = noise.next(below: original.count)
                let bit = noise.next(below: 8)
                flipped[offset] ^= UInt8(1 << bit)
                flips.append("\(offset).\(bit)")
            }
            checkMalformed(
                flipped, check: .noise, what: "bits flipped at \(flips.joined(separator: ", ")) (seed \(seed))",
                baseline: baseline)

            var overwritten = original
            var writes: [String] = []
            for _ in 0...noise.next(below: 8) {
                let offset = noise.next(below: original.count)
                let value = noise.nextByte()
                overwritten[offset] = value
                writes.append("\(offset)=\(value)")
            }
            checkMalformed(
                overwritten, check: .noise, what: "bytes overwritten \(writes.joined(separator: ", ")) (seed \(seed))",
                baseline: baseline)
        }
    }

    /// Probes, decodes (full size and thumbnail), decodes incrementally and opens as an
    /// animation the malformed `bytes`: each may succeed, or fail with an expected error kind.
    private func checkMalformed(_ bytes: [UInt8], check: ConformanceCheck, what: String, baseline: Baseline) {
        let allowed = run.options.malformedInputErrors
        let pixelLimit = max(run.options.malformedInputPixelLimit, baseline.info.width * baseline.info.height)
        func expectTyped(_ operation: String, _ body: () throws -> Void) {
            do {
                try body()
            } catch {
                if let problem = run.problem(with: error, allowed: allowed) {
                    fail(check, "\(what): \(operation) \(problem)")
                }
            }
        }
        bytes.withUnsafeBytes { buffer in
            expectTyped("probe") { _ = try coder.probe(buffer) }
            expectTyped("decode") { _ = try coder.decode(buffer, request: DecodeRequest(maxPixelCount: pixelLimit)) }
            expectTyped("thumbnail decode") {
                let request = DecodeRequest(thumbnailBox: Self.malformedThumbnailBox, maxPixelCount: pixelLimit)
                _ = try coder.decode(buffer, request: request)
            }
        }
        if let progressive = coder as? any ProgressiveImageCoder,
            baseline.format.capabilities.contains(.incrementalDecode)
        {
            expectTyped("incremental decode") {
                let decoder = try progressive.makeIncrementalDecoder(request: DecodeRequest(maxPixelCount: pixelLimit))
                try bytes.withUnsafeBytes { try decoder.append($0, isFinal: true) }
                do {
                    _ = try decoder.currentImage()
                } catch let error as ImageCodingError where error.kind == .needMoreData {
                    return
                }
            }
        }
        if let animated = coder as? any AnimatedImageCoder, baseline.format.capabilities.contains(.decodeAnimation) {
            expectTyped("animation") {
                let source = try animated.openAnimation(bytes)
                for index in 0..<max(0, min(source.info.frameCount, 2)) {
                    _ = try source.decodeFrame(at: index, request: DecodeRequest(maxPixelCount: pixelLimit))
                }
            }
        }
    }
}
