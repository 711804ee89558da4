/// Turns and mirrors pixels so that an image with an EXIF orientation shows upright.
public enum OrientationTransform {
    /// Returns the upright pixels; `.up` returns `source` itself.
    /// - Throws: ``ImageCodingError`` when the output cannot be allocated.
    public static func apply(
        _ orientation: ImageOrientation, to source: PixelBuffer, allocator: PixelAllocator = .system
    ) throws -> PixelBuffer {
        if orientation == .up { return source }
        let width = orientation.swapsWidthAndHeight ? source.height : source.width
        let height = orientation.swapsWidthAndHeight ? source.width : source.height
        let output = try PixelBuffer(width: width, height: height, format: source.format, allocator: allocator)
        switch source.format {
        case .rgba8: transform(orientation, source, output, pixel: UInt32.self)
        case .rgba16: transform(orientation, source, output, pixel: UInt64.self)
        }
        return output
    }

    /// The stored coordinate shown at (`x`, `y`) of the upright image.
    static func sourceCoordinate(
        _ orientation: ImageOrientation, x: Int, y: Int, sourceWidth: Int, sourceHeight: Int
    ) -> (x: Int, y: Int) {
        switch orientation {
        case .up: (x, y)
        case .upMirrored: (sourceWidth - 1 - x, y)
        case .down: (sourceWidth - 1 - x, sourceHeight - 1 - y)
        case .downMirrored: (x, sourceHeight - 1 - y)
        case .leftMirrored: (y, x)
        case .right: (y, sourceHeight - 1 - x)
        case .rightMirrored: (sourceWidth - 1 - y, sourceHeight - 1 - x)
        case .left: (sourceWidth - 1 - y, x)
        }
    }

    private static func transform<Pixel: FixedWidthInteger>(
        _ orientation: ImageOrientation, _ source: PixelBuffer, _ output: PixelBuffer, pixel: Pixel.Type
    ) {
        for y in 0..<output.height {
            let outputRow = output.row(y).assumingMemoryBound(to: Pixel.self)
            for x in 0..<output.width {
                let from = sourceCoordinate(
                    orientation, x: x, y: y, sourceWidth: source.width, sourceHeight: source.height)
                outputRow[x] = source.row(from.y).assumingMemoryBound(to: Pixel.self)[from.x]
            }
        }
    }
}
