import WebImageCore

/// Builds the reference decoder for a probed file: `info` from the plugin's probe, `bytes`
/// the whole file, `storedBox` the thumbnail box in stored pixels (nil for full size).
public typealias BenchmarkReferenceFactory =
    (_ info: ImageInfo, _ bytes: UnsafeRawBufferPointer, _ storedBox: (width: Int, height: Int)?) ->
    BenchmarkReferenceAvailability

extension BenchDecodeOptions {
    /// Reads the file, times in-process decodes of its bytes through the coder plugin
    /// (`CodersManager.decode(_:options:)`, the path apps use) and, when ``reference`` is
    /// set, the reference decoder interleaved with it; prints the report as text or JSON.
    ///
    /// The plugin side includes everything the host does (choosing the coder, the final
    /// thumbnail resize, EXIF orientation); the reference side does none of that.
    /// - Parameter makeReference: the reference decoders of this executable, or nil when it
    ///   has none (a reference asked for is then reported as unavailable).
    /// - Throws: ``CLIError`` for invalid arguments, ``InputFileError``, `ImageCodingError`
    ///   when the plugin cannot decode the file.
    public func run(makeReference: BenchmarkReferenceFactory?) throws {
        guard iterations >= 1 else {
            throw CLIError("--iterations must be at least 1, not \(iterations)")
        }
        let box = try thumbnail.map { try ThumbnailArgument.parse($0) }
        let bytes = try InputFile.read(file)
        let manager = pluginOptions.makeCodersManager()
        let info = try manager.probe(bytes)
        let benchmark = DecodeBenchmark(
            manager: manager, options: DecodeOptions(thumbnail: box), iterations: iterations, allFrames: allFrames)
        let outcome = try bytes.withUnsafeBytes { raw in
            var availability: BenchmarkReferenceAvailability?
            if reference {
                let storedBox = box.flatMap { ThumbnailPlan.storedBox(for: $0, info: info) }
                availability =
                    makeReference?(info, raw, storedBox) ?? .unavailable("this executable has no reference decoders")
            }
            return try benchmark.run(bytes, reference: availability)
        }
        let report = BenchDecodeReport(info: info, iterations: iterations, outcome: outcome)
        if json {
            if let reason = outcome.referenceUnavailable { Diagnostics.printNote("no reference run: \(reason)") }
            try JSONOutput.print(report)
        } else {
            for line in report.textLines(file: file, info: info, outcome: outcome, interleaved: reference) {
                print(line)
            }
        }
    }
}
