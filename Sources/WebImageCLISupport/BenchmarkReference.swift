/// The plain C library side a decode benchmark compares a plugin with: a decoder set up
/// for one file that writes tightly packed RGBA8 into memory of its own.
///
/// The `webimage` tool links no C image library; `webimage-bench` provides the conforming
/// decoders.
public protocol BenchmarkReference {
    /// What the reference does, for people (such as "libpng full-size decode").
    var summary: String { get }
    /// Output width in pixels.
    var width: Int { get }
    /// Output height in pixels.
    var height: Int { get }

    /// Decodes `bytes` once, the timed unit of the reference side.
    /// - Throws: ``CLIError`` with the library's message when decoding fails.
    func decode(_ bytes: UnsafeRawBufferPointer) throws
}

/// A reference decoder for a file, or why there is none.
public enum BenchmarkReferenceAvailability {
    case available(any BenchmarkReference)
    case unavailable(String)
}
