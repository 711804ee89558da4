import FoundationEssentials

/// What a transformer allocates for one input, stated before it runs
/// (``ImageTransformer/footprint(width:height:format:)``): the size of its output and every
/// byte it holds at once while it works, output and scratch buffers together.
///
/// The input is not counted: the caller holds it already.
public struct TransformFootprint: Sendable, Equatable {
    /// The output's width in pixels.
    public var width: Int
    /// The output's height in pixels.
    public var height: Int
    /// Bytes the transformer allocates at once: its output and its scratch; `Int.max` when
    /// the count overflows. 0 when it returns its input unchanged.
    public var byteCount: Int

    public init(width: Int, height: Int, byteCount: Int) {
        self.width = width
        self.height = height
        self.byteCount = byteCount
    }

    /// A new `width` × `height` output in `format` and `scratchByteCount` bytes besides it.
    public static func output(
        width: Int, height: Int, format: PixelFormat, scratchByteCount: Int = 0
    ) -> TransformFootprint {
        TransformFootprint(
            width: width, height: height,
            byteCount: sum(bytes(width: width, height: height, bytesPerPixel: format.bytesPerPixel), scratchByteCount))
    }

    /// The input returned as it is: nothing allocated.
    public static func unchanged(width: Int, height: Int) -> TransformFootprint {
        TransformFootprint(width: width, height: height, byteCount: 0)
    }

    /// Bytes of `width` × `height` items of `bytesPerPixel` bytes; `Int.max` on overflow.
    public static func bytes(width: Int, height: Int, bytesPerPixel: Int) -> Int {
        let pixels = max(0, width).multipliedReportingOverflow(by: max(0, height))
        let bytes = pixels.partialValue.multipliedReportingOverflow(by: bytesPerPixel)
        return pixels.overflow || bytes.overflow ? Int.max : bytes.partialValue
    }

    /// `values` added up; `Int.max` on overflow.
    public static func sum(_ values: Int...) -> Int {
        var total = 0
        for value in values {
            let (added, overflow) = total.addingReportingOverflow(max(0, value))
            if overflow { return Int.max }
            total = added
        }
        return total
    }

    /// `value` × `count`; `Int.max` on overflow.
    public static func times(_ value: Int, _ count: Int) -> Int {
        let (product, overflow) = max(0, value).multipliedReportingOverflow(by: max(0, count))
        return overflow ? Int.max : product
    }

    /// Threads a transformer's parallel loops (`DispatchQueue.concurrentPerform`) use at
    /// once: one per active core; each holds its own scratch.
    package static var concurrentTasks: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
