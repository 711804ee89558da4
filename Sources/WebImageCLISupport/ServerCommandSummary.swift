/// The one-line summaries of `webimage serve` and `webimage sign`, shared by `webimage`
/// (which lists them in its help and hands them over) and `webimage-serve` (which runs them).
package enum ServerCommandSummary {
    /// `serve`'s summary.
    package static let serve = "Serve processed images at imgproxy-style signed URLs."
    /// `sign`'s summary.
    package static let sign = "Sign an image server path (imgproxy's URL signatures)."
}
