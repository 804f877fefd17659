/// Maps colours to xterm palette indices, so swatches look right on terminals that cannot
/// show every RGB value.
///
/// The 256-colour choice follows tmux's `colour_find_rgb`, so Shelf inside and outside tmux
/// picks the same cell colour. Indices 0-15 are never chosen for 256 colours: terminals
/// and users redefine them freely, while 16-255 are the same everywhere.
public enum XtermPalette {
    /// Channel values of the 6x6x6 cube (indices 16-231).
    static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    /// xterm's default values for the 16 basic colours; other terminals differ, which is
    /// why the 256-colour mapping avoids them.
    static let basic: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0),
        (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
        (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// The palette index (16-255) nearest to an opaque colour: the nearest cube colour, or
    /// the nearest of the 24 greys when that is strictly closer (so ties keep the cube).
    public static func index256(red: UInt8, green: UInt8, blue: UInt8) -> Int {
        let r = cubeStep(red), g = cubeStep(green), b = cubeStep(blue)
        let cubeIndex = 16 + 36 * r + 6 * g + b
        let cubeDistance = distanceSquared(
            (cubeLevels[r], cubeLevels[g], cubeLevels[b]), (red, green, blue))

        let average = (Int(red) + Int(green) + Int(blue)) / 3
        let greyStep = average > 238 ? 23 : max(0, (average - 3) / 10)
        let greyLevel = UInt8(8 + 10 * greyStep)
        let greyDistance = distanceSquared((greyLevel, greyLevel, greyLevel), (red, green, blue))

        return greyDistance < cubeDistance ? 232 + greyStep : cubeIndex
    }

    /// `color` blended over `background`, then mapped with `index256(red:green:blue:)`.
    public static func index256(for color: RGBColor, over background: RGBColor) -> Int {
        let opaque = composite(color, over: background)
        return index256(red: opaque.red, green: opaque.green, blue: opaque.blue)
    }

    /// The RGB value a palette index shows: xterm's defaults for 0-15, computed for 16-255.
    /// Lets the UI print what a colour became, e.g. "#ff8000 → 208 #ff8700".
    public static func rgb(ofIndex index: Int) -> (UInt8, UInt8, UInt8) {
        precondition((0...255).contains(index), "xterm palette index \(index) is outside 0...255")
        switch index {
        case 0...15:
            return basic[index]
        case 16...231:
            let cube = index - 16
            return (cubeLevels[cube / 36], cubeLevels[cube / 6 % 6], cubeLevels[cube % 6])
        default:
            let level = UInt8(8 + 10 * (index - 232))
            return (level, level, level)
        }
    }

    /// `color` drawn over `background` as an opaque colour (alpha blending, rounded).
    /// The background's own alpha is ignored: a terminal's background is always opaque.
    public static func composite(_ color: RGBColor, over background: RGBColor) -> RGBColor {
        let alpha = Int(color.alpha)
        func blend(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
            UInt8((Int(top) * alpha + Int(bottom) * (255 - alpha) + 127) / 255)
        }
        return RGBColor(red: blend(color.red, background.red),
                     green: blend(color.green, background.green),
                     blue: blend(color.blue, background.blue))
    }

    /// The nearest of the 16 basic colours (0-15), for 16-colour terminals.
    public static func nearest16(red: UInt8, green: UInt8, blue: UInt8) -> Int {
        nearest(in: basic[0..<16], to: (red, green, blue))
    }

    /// `color` blended over `background`, then mapped with `nearest16(red:green:blue:)`.
    public static func nearest16(for color: RGBColor, over background: RGBColor) -> Int {
        let opaque = composite(color, over: background)
        return nearest16(red: opaque.red, green: opaque.green, blue: opaque.blue)
    }

    /// The nearest of the 8 basic colours (0-7), for 8-colour terminals.
    public static func nearest8(red: UInt8, green: UInt8, blue: UInt8) -> Int {
        nearest(in: basic[0..<8], to: (red, green, blue))
    }

    /// `color` blended over `background`, then mapped with `nearest8(red:green:blue:)`.
    public static func nearest8(for color: RGBColor, over background: RGBColor) -> Int {
        let opaque = composite(color, over: background)
        return nearest8(red: opaque.red, green: opaque.green, blue: opaque.blue)
    }

    /// Index of the cube level nearest to `value`, by tmux's thresholds: the levels are
    /// uneven (0, 95, then every 40), so the first two midpoints (48, 115) are explicit and
    /// `(v - 35) / 40` steps up at the later ones (155, 195, 235).
    static func cubeStep(_ value: UInt8) -> Int {
        let v = Int(value)
        if v < 48 { return 0 }
        if v < 115 { return 1 }
        return (v - 35) / 40
    }

    static func distanceSquared(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Int {
        let dr = Int(a.0) - Int(b.0), dg = Int(a.1) - Int(b.1), db = Int(a.2) - Int(b.2)
        return dr * dr + dg * dg + db * db
    }

    /// First index with the smallest distance, so ties go to the lower index.
    private static func nearest(in colors: ArraySlice<(UInt8, UInt8, UInt8)>,
                                to target: (UInt8, UInt8, UInt8)) -> Int {
        var best = colors.startIndex
        var bestDistance = Int.max
        for index in colors.indices {
            let distance = distanceSquared(colors[index], target)
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return best
    }
}
