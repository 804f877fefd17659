import CNcursesw
import TerminalKit
import TerminalUI

/// What ncurses' `get_wch` codes mean as Shelf's keys, and back: the one table between them.
enum NcursesKeyCodes {
    /// The ncurses key code for a key `KeySequences` lists.
    static func code(for key: Key) -> Int32? {
        switch key {
        case .up: return shelf_key_up()
        case .down: return shelf_key_down()
        case .left: return shelf_key_left()
        case .right: return shelf_key_right()
        case .home: return shelf_key_home()
        case .end: return shelf_key_end()
        case .pageUp: return shelf_key_ppage()
        case .pageDown: return shelf_key_npage()
        case .backTab: return shelf_key_btab()
        case .enter: return shelf_key_enter()
        case .delete: return shelf_key_dc()
        default: return nil
        }
    }

    /// A function key code from get_wch (KEY_CODE_YES).
    static func key(forCode code: Int32) -> Key {
        switch code {
        case shelf_key_resize(): return .resize
        case shelf_key_up(): return .up
        case shelf_key_down(): return .down
        case shelf_key_left(): return .left
        case shelf_key_right(): return .right
        case shelf_key_home(): return .home
        case shelf_key_end(): return .end
        case shelf_key_ppage(): return .pageUp
        case shelf_key_npage(): return .pageDown
        case shelf_key_btab(): return .backTab
        case shelf_key_enter(): return .enter
        case shelf_key_backspace(): return .backspace
        case shelf_key_dc(): return .delete
        case shelf_key_ic(): return .insert
        // The VT220 keypad's Find and Select, where Home and End are on a PC keyboard.
        case shelf_key_find(), shelf_key_a1(): return .home
        case shelf_key_select(), shelf_key_c1(): return .end
        case shelf_key_a3(): return .pageUp
        case shelf_key_c3(): return .pageDown
        default: return .unknown(code)
        }
    }

    /// A character from get_wch (OK).
    static func key(forCharacter value: UInt32) -> Key {
        switch value {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26:
            return .ctrl(Character(Unicode.Scalar(UInt8(value) + 96)))  // 1 is Ctrl-A
        case 0..<32:
            return .unknown(Int32(value))
        default:
            guard let scalar = Unicode.Scalar(value) else { return .unknown(Int32(bitPattern: value)) }
            return .character(Character(scalar))
        }
    }
}
