/// An sRGB colour with alpha, as the toolkit draws it: what a swatch fills with and what a
/// translucent colour is blended over. The toolkit's own, so it needs no application's colour
/// type; an app converts its colours to this where it hands them to a widget.
public struct RGBColor: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// 255 is opaque, 0 fully transparent.
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let black = RGBColor(red: 0, green: 0, blue: 0)
    public static let white = RGBColor(red: 255, green: 255, blue: 255)
}
