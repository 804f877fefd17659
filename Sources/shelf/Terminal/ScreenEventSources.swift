import CNcursesw
import Dispatch
import Glibc
import TerminalKit
import TerminalUI

/// The screen's events as Dispatch sources on the main queue: keys from stdin (and the end of
/// the terminal), and resizes.
enum ScreenEventSources {
    /// A resumed read source on stdin for the main queue: when input arrives it drains every
    /// waiting key with `readKeys()` and passes them to `onKeys` (never an empty array).
    /// When the terminal is gone (stdin fails with EIO, or is readable with nothing to read
    /// three times running) the source is cancelled and `onEndOfInput` runs: stop the screen
    /// and exit, as on SIGHUP. A detached process gets no SIGHUP, so this is its only notice.
    /// Keep the source alive (store it) for as long as input should be read.
    @MainActor
    static func input(of screen: NcursesScreen, onKeys: @escaping @MainActor ([Key]) -> Void,
                      onEndOfInput: @escaping @MainActor () -> Void) -> any DispatchSourceRead {
        nonisolated(unsafe) let source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        source.setEventHandler {
            MainActor.assumeIsolated {
                let keys = screen.readKeys()
                if !keys.isEmpty {
                    screen.emptyInputReads = 0
                    onKeys(keys)
                } else {
                    // EIO: the terminal hung up (libdispatch also stops watching the fd then,
                    // so this is the last call). 0: readable with nothing to read, end of input
                    // unless it is a stray wake-up, so wait for three in a row.
                    let available = shelf_bytes_available(STDIN_FILENO)
                    if available < 0 {
                        screen.emptyInputReads = 3
                    } else if available == 0 {
                        screen.emptyInputReads += 1
                    }
                    if screen.emptyInputReads >= 3 {
                        source.cancel()
                        onEndOfInput()
                    }
                }
            }
        }
        source.resume()
        return source
    }

    /// A resumed SIGWINCH source for the main queue that resizes ncurses to the terminal
    /// (`updateSize()`) and calls `onResize` with the new size.
    ///
    /// Needed because a dispatch source takes SIGWINCH away from ncurses' own handler (checked
    /// here: with both in place ncurses never sees the signal, so no KEY_RESIZE arrives and the
    /// size stays stale); without any source, KEY_RESIZE only shows up with the next key press.
    @MainActor
    static func resize(of screen: NcursesScreen, onResize: @escaping @MainActor (Size) -> Void) -> any DispatchSourceSignal {
        signal(SIGWINCH, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        source.setEventHandler {
            MainActor.assumeIsolated {
                onResize(screen.updateSize())
            }
        }
        source.resume()
        return source
    }
}
