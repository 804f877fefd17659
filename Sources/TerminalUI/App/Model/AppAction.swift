import Foundation
import TerminalKit

/// Everything that happens to the app, as a value: `AppModel.apply` is the one way in. What
/// the keys and the mouse ask for that takes time (writes, reads, listings) goes out as
/// effects, whose results come back here as `effectFinished`; what the shell does for the app
/// (the editor, the clipboard, quitting) is the `Outcome` apply returns.
public enum AppAction {
    /// A key; `pageSize` is the list's height, for PgUp/PgDn.
    case key(Key, pageSize: Int = 10)
    /// A click or a turn of the wheel on what the frame on screen drew there (`HitMap`).
    case mouse(MouseEvent.Kind, on: HitMap.Hit)
    /// Before a frame: the screen's size, and the rows as the listeners left them (`settle`).
    case frame(Size)
    /// Before a frame: the next slice of a large tab's sort keys. Answers `.keepRunning` while
    /// more remain (the app draws again soon, keys and signals handled in between),
    /// `.unchanged` once none do.
    case sortSlice
    /// Before a frame: the keys (and a draft) that waited for the shown tab to load, once it
    /// has. Answers what the last of them asks for beyond the state.
    case replayWaitingKeys
    /// A second has passed: the app looks at the collections again (`CollectionListing`, an
    /// effect), unless its last look is still under way. Answers `.unchanged`.
    case tick
    /// A look at the collections, taken in (`CollectionListing`; the app's own come back as
    /// effects).
    case collectionsListed(CollectionListing)
    /// An effect the app started has finished.
    case effectFinished(EffectOutcome)
    /// Back from the editor on this file, with the editor's complaint if it had one.
    case editorFinished(URL, result: String?)
    /// Ctrl-Z came back at once: no shell's job control could bring Shelf back.
    case suspensionRefused
}

/// An effect's result, as the runner hands it back (its content is the model's business).
public struct EffectOutcome {
    let result: EffectResult
}
