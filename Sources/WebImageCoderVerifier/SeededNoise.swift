/// A repeatable stream of pseudo-random numbers for building test inputs: the 32-bit linear
/// congruential generator of Numerical Recipes (state × 1 664 525 + 1 013 904 223).
///
/// The same seed always gives the same numbers, on every platform, so a failure found with
/// noise can be reproduced from its seed. Not for anything that must be unpredictable.
public struct SeededNoise: Sendable {
    /// The generator's current state; the next number is derived from it.
    public private(set) var state: UInt32

    public init(seed: UInt32) {
        state = seed
    }

    /// Advances the generator and returns its new 32-bit state.
    public mutating func next() -> UInt32 {
        state = state &* 1_664_525 &+ 1_013_904_223
        return state
    }

    /// The top 8 bits of the next state (the generator's best bits).
    public mutating func nextByte() -> UInt8 {
        UInt8(truncatingIfNeeded: next() >> 24)
    }

    /// A number in `0..<bound` taken from the top 24 bits of the next state; `bound` must be positive.
    public mutating func next(below bound: Int) -> Int {
        Int(next() >> 8) % bound
    }

    /// `count` bytes from ``nextByte()``.
    public mutating func bytes(count: Int) -> [UInt8] {
        (0..<count).map { _ in nextByte() }
    }

    /// The first `count` bytes (``nextByte()``) of the stream that starts at `seed`.
    public static func bytes(count: Int, seed: UInt32) -> [UInt8] {
        var noise = SeededNoise(seed: seed)
        return noise.bytes(count: count)
    }
}
