import ArgumentParser

/// Which libpng API the PNG reference decoder uses (`bench decode --reference-api`).
public enum ReferenceAPI: String, ExpressibleByArgument, CaseIterable {
    /// libpng's low-level read API with the same transforms as the PNG plugin (default).
    case lowLevel = "low-level"
    /// libpng's simplified `png_image` API, the raw C of the performance anchors.
    case simplified
}
