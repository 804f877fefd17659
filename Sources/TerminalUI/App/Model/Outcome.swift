import Foundation

/// What an action asks of the shell beyond the app's state.
public enum Outcome: Equatable {
    case keepRunning, quit
    /// The action changed nothing on screen: no frame is needed.
    case unchanged
    /// Leave the screen, run `$VISUAL`/`$EDITOR`/vi on this file, come back; the change
    /// arrives through the listener like any other.
    case runEditor(URL)
    /// Put this text on the terminal's clipboard (OSC 52).
    case copyToClipboard(String)
    /// Give the terminal back and stop, as Ctrl-Z does in a shell (`fg` comes back to
    /// the same screen, a form's text included).
    case suspend
}
