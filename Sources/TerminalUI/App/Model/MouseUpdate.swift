import TerminalKit

/// The mouse: a click or a turn of the wheel on what the frame drew there (`HitMap`).
@MainActor
enum MouseUpdate {
    /// Rows a turn of the wheel scrolls.
    static let wheelStep = 3

    /// A click selects the row or the tab under it, or sorts by the column whose title it is
    /// on; the wheel scrolls the list, or the detail, the JSON view or the help when it is
    /// over them. Only while browsing (and scrolling the views): a form or a question is
    /// answered by keys.
    static func handle(_ kind: MouseEvent.Kind, on hit: HitMap.Hit, in state: inout AppState) -> Reply {
        guard state.keysWaitingForLoad.isEmpty else { return Reply() }
        defer { state.keepSelectionInView(height: AppView.listHeight(for: state.size)) }
        let step = kind == .wheelUp ? -wheelStep : wheelStep
        let tab = state.tab
        var reply = Reply()
        switch (state.mode, kind, hit) {
        case (.browse, .press, .tab(let index)):
            reply.clearsNotice = true
            state.switchTab(to: index)
        case (.browse, .press, .header(let column)):
            // A click on a title sorts by it; on the sorted column's, turns it around (htop).
            guard state.isReady(tab) else { break }
            let order = state.sortOrder(of: tab)
            reply.notice = state.sort(by: order.column == column ? order.reversed : SortOrder(column: column))
        case (.browse, .press, .row(let position)):
            reply.clearsNotice = true
            state.showsLookup = false
            state.select(position: position, in: state.visibleRows(of: tab))
        case (.browse, .wheelUp, .row), (.browse, .wheelUp, .list), (.browse, .wheelDown, .row), (.browse, .wheelDown, .list):
            if state.isReady(tab) { state.move(step) }
        case (.browse, .wheelUp, .detail), (.browse, .wheelDown, .detail):
            state.scrollDetail(by: step)
        case (.raw(var view), .wheelUp, _), (.raw(var view), .wheelDown, _):
            view.offset = max(0, view.offset + step)
            state.mode = .raw(view)
        case (.help(let offset), .wheelUp, _), (.help(let offset), .wheelDown, _):
            state.mode = .help(offset: max(0, offset + step))
        case (.messages(let offset), .wheelUp, _), (.messages(let offset), .wheelDown, _):
            state.mode = .messages(offset: max(0, offset + step))
        default: break
        }
        return reply
    }
}
