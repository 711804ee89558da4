/// The sizes imgproxy's rules give a resize of one source: the whole source scaled to
/// ``scaledWidth`` × ``scaledHeight``, then its centre cut to ``width`` × ``height``
/// (before any `extend` padding).
///
/// The rules, for a box W × H and a W × H source:
/// - a side of 0 is the source's; the scale on each side is the box's over the source's;
/// - `fit` takes the smaller of the two scales for both sides, `fill` and `fill-down` the
///   larger, `force` keeps each; with one side 0, every type but `force` takes the other
///   side's scale (the aspect ratio is kept);
/// - `auto` is `fill` when the source and the box are both landscape (or square) or both
///   portrait, `fit` otherwise;
/// - without `enlarge`, both scales are divided by the larger one when it is over 1, so no
///   side grows and `force` keeps the box's proportions;
/// - the scaled image is cut to the box where it overhangs; `fill-down` without `enlarge`
///   cuts a result smaller than the box to the box's aspect ratio instead.
struct ResizeGeometry: Equatable {
    /// The source scaled, in pixels, at least 1.
    var scaledWidth: Int
    var scaledHeight: Int
    /// The centred cut of the scaled image, in pixels, at most the scaled size.
    var width: Int
    var height: Int

    /// The geometry of `resize` for a `sourceWidth` × `sourceHeight` source (both positive).
    init(_ resize: ResizeOptions, sourceWidth: Int, sourceHeight: Int) {
        let source = (width: Double(sourceWidth), height: Double(sourceHeight))
        let box = (
            width: resize.width > 0 ? Double(resize.width) : source.width,
            height: resize.height > 0 ? Double(resize.height) : source.height
        )
        // Shrink factors, source over result: above 1 shrinks, below 1 enlarges.
        var shrink = (width: source.width / box.width, height: source.height / box.height)
        if shrink != (1, 1) {
            var type = resize.type
            if type == .auto { type = (source.width >= source.height) == (box.width >= box.height) ? .fill : .fit }
            switch type {
            case _ where resize.width == 0 && type != .force: shrink.width = shrink.height
            case _ where resize.height == 0 && type != .force: shrink.height = shrink.width
            case .fit: shrink = (max(shrink.width, shrink.height), max(shrink.width, shrink.height))
            case .fill, .fillDown: shrink = (min(shrink.width, shrink.height), min(shrink.width, shrink.height))
            case .force, .auto: break
            }
        }
        if !resize.enlarges, min(shrink.width, shrink.height) < 1 {
            let least = min(shrink.width, shrink.height)
            shrink = (shrink.width / least, shrink.height / least)
        }
        scaledWidth = max(1, Self.pixels(source.width * (1 / shrink.width)))
        scaledHeight = max(1, Self.pixels(source.height * (1 / shrink.height)))
        var cut = (width: resize.width, height: resize.height)
        if resize.type == .fillDown && !resize.enlarges {
            let growth = (
                width: Double(resize.width) / Double(scaledWidth), height: Double(resize.height) / Double(scaledHeight)
            )
            if growth.width > growth.height && growth.width > 1 {
                cut = (scaledWidth, Self.pixels(Double(scaledWidth) * Double(resize.height) / Double(resize.width)))
            } else if growth.height > growth.width && growth.height > 1 {
                cut = (Self.pixels(Double(scaledHeight) * Double(resize.width) / Double(resize.height)), scaledHeight)
            }
        }
        width = cut.width > 0 ? min(cut.width, scaledWidth) : scaledWidth
        height = cut.height > 0 ? min(cut.height, scaledHeight) : scaledHeight
    }

    /// `value` rounded to whole pixels, at most `Int32.max` (a size no transformer allocates,
    /// which it refuses as too large) so that a huge requested size cannot overflow.
    private static func pixels(_ value: Double) -> Int {
        Int(min(value.rounded(), Double(Int32.max)))
    }
}
