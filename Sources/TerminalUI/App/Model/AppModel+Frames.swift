import DocumentStore
import Foundation
import TerminalKit

/// Before each frame, the state follows the size and the rows, so drawing only reads it; the
/// shown document's times are read as an effect.
extension AppModel {
    /// One frame: the state takes in what changed since the last (`settle`), then is drawn by
    /// the pure `AppView.render`, which returns the screen and what a click on it means.
    public func frame(size: Size) -> AppView.Screen {
        apply(.frame(size))
        return AppView.render(self, size: size)
    }

    /// Brings the state up to date with the size and with the rows before a frame, so drawing
    /// only reads it: the selection stays in view and follows its document, the scrolled views
    /// stop at their ends, the JSON view, the lookup and the shown document's times follow
    /// new snapshots.
    func settle(size: Size) {
        state.size = size
        state.tabSet.noteHeldDocuments()
        guard !TooSmall.applies(to: size) else { return }
        let layout = ScreenLayout(size: size)
        let bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
        state.keepSelectionInView(height: layout.listRows.height)
        state.keepColumnCursorInView()
        let visible = state.visibleRows(of: tab)
        let index = state.selection(in: visible).map { visible[$0] }
        tab.show(rows: state.current.list.offset..<state.current.list.offset + layout.listRows.height)
        let snapshot = index.flatMap { tab.snapshot(at: $0) }
        switch state.mode {
        case .form: break
        case .raw(var view):
            if let snapshot, snapshot.reference.path == view.path { view.follow(snapshot, text: documents.text(of:)) }
            view.offset = AppView.rawPane(view, area: layout.detail).widget.offset
            state.mode = .raw(view)
        case .help(let offset):
            state.mode = .help(offset: min(offset, AppView.help(self).maxOffset(in: bounds)))
        case .messages(let offset):
            state.mode = .messages(offset: min(offset, AppView.messageLog(status.history, width: size.width).maxOffset(in: bounds)))
        default: break
        }
        switch state.mode {
        case .form, .raw: break
        case _ where state.showsLookup:
            _ = perform(Reply(starting: followLookup()))
        default:
            guard let index, let snapshot else { break }
            _ = perform(Reply(starting: readTimes(of: snapshot)))
            state.detailScroll = (snapshot.reference.path, AppView.detailPane(self, tab: tab, index: index, snapshot: snapshot, area: layout.detail).pane.widget.offset)
        }
    }


    /// The document's create and update times as read for this snapshot of it: nil until they
    /// are read (the frame after shows them), when it has none, or while the server is offline.
    func times(of snapshot: DocumentSnapshot) -> DocumentTimes? {
        state.shownTimes.flatMap { $0.snapshot === snapshot ? $0.times : nil }
    }

    /// The read of a new snapshot's times, when it is shown and they are not read yet (a
    /// file's stat and attribute, or one query).
    func readTimes(of snapshot: DocumentSnapshot) -> Effect? {
        guard showsDocumentTimes, state.shownTimes?.snapshot !== snapshot, connection?.isOffline != true,
              state.timesBeingRead !== snapshot else { return nil }
        state.timesBeingRead = snapshot
        return .readTimes(snapshot)
    }

    /// The times read for a snapshot: shown while it is the one shown.
    func timesRead(of snapshot: DocumentSnapshot, _ times: DocumentTimes?) {
        state.shownTimes = (snapshot, times)
        if state.timesBeingRead === snapshot { state.timesBeingRead = nil }
    }
}
