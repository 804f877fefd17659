
/// The mouse: a click or a turn of the wheel on what the frame drew there.
extension AppModel {
    /// Rows a turn of the wheel scrolls.
    static let wheelStep = 3

    /// A click selects the row or the tab under it; the wheel scrolls the list, or the detail,
    /// the JSON view or the help when it is over them. Only while browsing (and scrolling the
    /// views): a form or a question is answered by keys. `hit` is what the frame on screen
    /// drew at the pointer (`HitMap`).
    func handle(mouse kind: MouseEvent.Kind, on hit: HitMap.Hit) {
        guard state.keysWaitingForLoad.isEmpty else { return }
        defer { state.keepSelectionInView(height: AppView.listHeight(for: state.size)) }
        let step = kind == .wheelUp ? -Self.wheelStep : Self.wheelStep
        switch (state.mode, kind, hit) {
        case (.browse, .press, .tab(let index)):
            notice = nil
            state.switchTab(to: index)
        case (.browse, .press, .header(let column)):
            // A click on a title sorts by it; on the sorted column's, turns it around (htop).
            guard state.isReady(tab) else { break }
            let order = state.sortOrder(of: tab)
            notice = state.sort(by: order.column == column ? order.reversed : SortOrder(column: column))
        case (.browse, .press, .row(let position)):
            notice = nil
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
    }
}
