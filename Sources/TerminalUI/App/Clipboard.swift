import Foundation

/// Copying to the clipboard of the terminal Shelf runs in, wherever that is (over ssh, in
/// tmux with `set-clipboard on`): the OSC 52 escape sequence, which the terminal acts on.
public enum Clipboard {
    /// `ESC ] 52 ; c ; <base64 of the UTF-8 text> BEL`: "c" is the clipboard selection.
    public static func osc52(copying text: String) -> String {
        "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
    }
}
