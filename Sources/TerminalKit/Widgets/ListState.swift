/// The part of a list that outlives a frame: which row is selected and which row is at the
/// top of the pane. The app owns it; `ListWidget` keeps it valid when it renders, and
/// `keptVisible(rowCount:height:)` gives the same answer to store back.
public struct ListState: Hashable, Sendable {
    /// The selected row, or nil when nothing is (an empty list).
    public var selected: Int?
    /// The first visible row.
    public var offset: Int

    public init(selected: Int? = nil, offset: Int = 0) {
        self.selected = selected
        self.offset = offset
    }

    /// The state with `selected` clamped to the rows and `offset` moved as little as
    /// possible so the selection is inside a pane `height` rows high, without empty rows
    /// below the last row when the list is longer than the pane.
    public func keptVisible(rowCount: Int, height: Int) -> ListState {
        var state = self
        if rowCount <= 0 {
            state.selected = nil
            state.offset = 0
            return state
        }
        if let selected = state.selected {
            state.selected = min(max(0, selected), rowCount - 1)
        }
        let height = max(1, height)
        if let selected = state.selected {
            if selected < state.offset { state.offset = selected }
            if selected >= state.offset + height { state.offset = selected - height + 1 }
        }
        state.offset = min(max(0, state.offset), max(0, rowCount - height))
        return state
    }

    /// Moves the selection by `delta` rows (negative is up), clamped to the list; selects
    /// the first row when nothing was selected.
    public mutating func move(by delta: Int, rowCount: Int) {
        guard rowCount > 0 else { selected = nil; return }
        guard let current = selected else { selected = 0; return }
        selected = min(max(0, current + delta), rowCount - 1)
    }

    public mutating func selectFirst(rowCount: Int) {
        selected = rowCount > 0 ? 0 : nil
    }

    public mutating func selectLast(rowCount: Int) {
        selected = rowCount > 0 ? rowCount - 1 : nil
    }
}
