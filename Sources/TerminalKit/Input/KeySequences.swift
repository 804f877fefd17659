/// The escape sequences terminals send for the keys Shelf uses, beyond what one TERM's
/// terminfo entry lists. tmux sends Home as `ESC [1~` and End as `ESC [4~` whatever TERM the
/// pane has, xterm sends `ESC O H` or `ESC [H`, rxvt `ESC [7~`, the Linux console `ESC [1~`;
/// the backend registers every one of them (as htop does with `define_key`), so a key never
/// arrives as Esc followed by characters that would run as commands.
public enum KeySequences {
    /// Every alternate sequence and the key it means, in both cursor-key modes.
    public static let alternates: [(sequence: String, key: Key)] = {
        var table: [(String, Key)] = []
        for (final, key) in [("A", Key.up), ("B", .down), ("C", .right), ("D", .left), ("H", .home), ("F", .end)] {
            table.append(("\u{1B}[" + final, key))
            table.append(("\u{1B}O" + final, key))
        }
        for (number, key) in tildeKeys.sorted(by: { $0.key < $1.key }) where key != .insert {
            table.append(("\u{1B}[\(number)~", key))
        }
        table.append(("\u{1B}[Z", .backTab))
        table.append(("\u{1B}OM", .enter))  // keypad Enter in application mode
        return table
    }()

    /// `ESC [ n ~` keys: the VT220 editing keypad (1 Find and 4 Select sit where Home and End
    /// are) and rxvt's 7 and 8.
    static let tildeKeys: [Int: Key] = [1: .home, 2: .insert, 3: .delete, 4: .end, 5: .pageUp, 6: .pageDown, 7: .home, 8: .end]

    /// Folds escape sequences that reached the app as separate keys (a sequence no table
    /// knew, or one ncurses split) back into one key: `Esc [ 1 ; 5 H` is Home, an unknown
    /// sequence becomes one `.unknown` key instead of characters. Only keys that arrived in one
    /// read are folded, so an Esc a person typed on its own stays an Esc.
    public static func fold(_ keys: [Key]) -> [Key] {
        guard keys.contains(.escape) else { return keys }
        var result: [Key] = []
        var index = 0
        while index < keys.count {
            if keys[index] == .escape, let (event, length) = mouseReport(in: keys[(index + 1)...]) {
                result.append(.mouse(event))
                index += 1 + length
            } else if keys[index] == .escape, let (key, length) = sequence(in: keys[(index + 1)...]) {
                result.append(key)
                index += 1 + length
            } else {
                result.append(keys[index])
                index += 1
            }
        }
        return result
    }

    /// A mouse report at the start of `keys` (after its Esc), in whichever encoding the
    /// terminal sent, and how many keys it took. ncurses decodes only the encoding TERM's
    /// terminfo names, and passes the other on as characters (`ESC [ < 0 ; 1 1 ; 7 M` would
    /// switch to tab 1, then to 7): SGR (1006) `[<b;x;yM` (`m`: a release), urxvt (1015)
    /// `[b;x;yM` with b 32 more than the button, and X10/normal `[M` and three bytes each 32
    /// more than the button, column and row (counted from 1).
    static func mouseReport(in keys: ArraySlice<Key>) -> (MouseEvent, Int)? {
        guard keys.first == .character("[") else { return nil }
        let rest = keys.dropFirst()
        if rest.first == .character("M") {
            let bytes = rest.dropFirst().prefix(3).compactMap(byte)
            guard bytes.count == 3, bytes.allSatisfy({ $0 >= 32 }) else { return nil }
            return (event(code: bytes[0] - 32, column: bytes[1] - 32, row: bytes[2] - 32), 5)
        }
        let isSGR = rest.first == .character("<")
        var parameters = ""
        var length = isSGR ? 2 : 1
        for key in rest.dropFirst(isSGR ? 1 : 0) {
            length += 1
            guard case .character(let c) = key, c.isASCII else { return nil }
            if c.isNumber || c == ";" { parameters.append(c); continue }
            let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).compactMap { Int($0) }
            guard numbers.count == 3, c == "M" || (isSGR && c == "m") else { return nil }
            let code = isSGR ? numbers[0] : numbers[0] - 32
            return (event(code: c == "m" ? -1 : code, column: numbers[1], row: numbers[2]), length)
        }
        return nil
    }

    /// The value of a byte of an X10 report, as the backend passed it on.
    private static func byte(_ key: Key) -> Int? {
        switch key {
        case .character(let c): return c.unicodeScalars.count == 1 ? Int(c.unicodeScalars.first!.value) : nil
        case .backspace: return 127
        default: return nil
        }
    }

    /// A report's button code as an event: the left button's press and the wheel, whatever
    /// Shift, Alt or Ctrl (4, 8, 16) were held; anything else (a release, a move, another
    /// button; -1 for SGR's release) read whole and ignored.
    private static func event(code: Int, column: Int, row: Int) -> MouseEvent {
        let point = Point(x: column - 1, y: row - 1)
        guard code >= 0 else { return MouseEvent(.other, at: point) }
        switch code & ~(4 | 8 | 16) {
        case 0: return MouseEvent(.press, at: point)
        case 64: return MouseEvent(.wheelUp, at: point)
        case 65: return MouseEvent(.wheelDown, at: point)
        default: return MouseEvent(.other, at: point)
        }
    }

    /// The key a CSI (`[` parameters final) or SS3 (`O` final) sequence at the start of
    /// `keys` means, and how many keys it took; nil when the keys are not such a sequence.
    private static func sequence(in keys: ArraySlice<Key>) -> (Key, Int)? {
        guard case .character(let introducer)? = keys.first, introducer == "[" || introducer == "O" else { return nil }
        var parameters = ""
        var length = 1
        for key in keys.dropFirst() {
            length += 1
            guard case .character(let c) = key, let ascii = c.asciiValue else { return nil }
            if introducer == "[", c.isNumber || c == ";" {
                parameters.append(c)
                continue
            }
            guard (0x40...0x7E).contains(ascii) else { return nil }
            if introducer == "O" && !parameters.isEmpty { return nil }
            return (meaning(final: c, parameters: parameters), length)
        }
        return nil
    }

    /// Modifiers (`1;5H` is Ctrl-Home) are ignored: the key still does what the plain key does.
    private static func meaning(final: Character, parameters: String) -> Key {
        let first = parameters.split(separator: ";").first.flatMap { Int($0) }
        switch final {
        case "A": return .up
        case "B": return .down
        case "C": return .right
        case "D": return .left
        case "H": return .home
        case "F": return .end
        case "Z": return .backTab
        case "M": return parameters.isEmpty ? .enter : .unknown(-1)
        case "~": return first.flatMap { tildeKeys[$0] } ?? .unknown(-1)
        default: return .unknown(-1)
        }
    }
}
