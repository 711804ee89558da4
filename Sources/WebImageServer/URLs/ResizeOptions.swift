/// The resize that the `resize`/`rs`, `size`/`s`, `width`/`w`, `height`/`h` and
/// `enlarge`/`el` options set between them, with imgproxy's meanings.
public struct ResizeOptions: Sendable, Equatable {
    /// How the image meets the requested box.
    public enum ResizingType: String, Sendable, CaseIterable {
        /// Keep the aspect ratio and fit inside the box.
        case fit
        /// Keep the aspect ratio, cover the box and crop what overhangs.
        case fill
        /// As `fill`, but a result smaller than the box is cropped to the box's aspect ratio.
        case fillDown = "fill-down"
        /// Stretch to the box, aspect ratio not kept.
        case force
        /// `fill` when the source and the box have the same orientation, `fit` otherwise.
        case auto
    }

    /// Default `fit`.
    public var type: ResizingType = .fit
    /// Box width in pixels; 0 (the default) means computed from the height and the aspect ratio.
    public var width = 0
    /// Box height in pixels; 0 (the default) means computed from the width and the aspect ratio.
    public var height = 0
    /// Whether a source smaller than the box is enlarged. Default false.
    public var enlarges = false
    /// Whether a result smaller than the box is padded to it, centred, in the background
    /// colour (transparent without one). Default false.
    public var extends = false

    public init() {}

    /// `rs:TYPE:W:H[:ENLARGE[:EXTEND]]` with trailing defaults left out; empty without a
    /// width or a height, when there is nothing to resize to.
    var canonical: String {
        guard width > 0 || height > 0 else { return "" }
        var text = "rs:\(type.rawValue):\(width):\(height)"
        if enlarges || extends { text += enlarges ? ":1" : ":0" }
        if extends { text += ":1" }
        return text
    }
}
