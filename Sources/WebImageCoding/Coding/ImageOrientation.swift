/// EXIF orientation: how stored pixels must be turned to show the picture upright.
public enum ImageOrientation: UInt32, Sendable, CaseIterable {
    /// 1: stored as shown.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: turned 180°.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: mirrored along the top-left to bottom-right diagonal.
    case leftMirrored = 5
    /// 6: shown after turning 90° clockwise.
    case right = 6
    /// 7: mirrored along the top-right to bottom-left diagonal.
    case rightMirrored = 7
    /// 8: shown after turning 90° counter-clockwise.
    case left = 8

    /// The orientation for an EXIF value; values outside 1...8 mean `.up`.
    public init(exifValue: UInt32) {
        self = ImageOrientation(rawValue: exifValue) ?? .up
    }

    /// True for 5...8, where the shown width is the stored height.
    public var swapsWidthAndHeight: Bool { rawValue >= 5 }
}
