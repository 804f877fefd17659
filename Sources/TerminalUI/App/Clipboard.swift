import Foundation

/// Copying to the clipboard of the terminal Shelf runs in, wherever that is (over ssh, in
/// tmux with `set-clipboard on`): the OSC 52 escape sequence, which the terminal acts on.
public enum Clipboard {
    /// The most text (UTF-8 bytes) sent: more is dropped by the terminal without a word.
    ///
    /// tmux keeps an escape sequence's string in a buffer of at most 1 MiB (`INPUT_BUF_LIMIT
    /// 1048576` in its input.c) and discards a longer one whole; "52;c;" and the base64 of
    /// 786,426 bytes are 1,048,573 bytes, of 786,427 bytes 1,048,577. Measured with tmux 3.3a:
    /// 786,426 bytes reach its paste buffer, 786,427 do not. xterm takes at least 1 MB, kitty
    /// 8 MB; some take less (hterm 100,000 bytes of sequence, st and Termux a few KB), so
    /// below this a copy is likely but cannot be confirmed: OSC 52 has no reply.
    public static let maxBytes = 786_426

    /// `ESC ] 52 ; c ; <base64 of the UTF-8 text> BEL`: "c" is the clipboard selection.
    public static func osc52(copying text: String) -> String {
        "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
    }
}
