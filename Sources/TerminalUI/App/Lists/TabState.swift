import TerminalKit

/// What the app keeps for one tab beside its rows: where its list is, which document is
/// selected, its filter and its order. One value per tab, so no part of a tab's state can be
/// left behind when another part changes.
struct TabState {
    var list = ListState()
    /// The selected document: the selection follows it as other documents come and go.
    var selectedID: String?
    /// `selectedID` was just written by Shelf and the listener has not listed it yet: until
    /// it does, the selection must not fall back to a neighbour and forget it.
    var awaitsSelection = false
    /// The filter applied with Enter (the one being typed is the filter mode's).
    var filter: String?
    /// The filter Esc cleared: the whole list is back, its matches still highlighted, and
    /// n/N go from one to the next. A second Esc forgets it.
    var search: String?
    /// The order chosen by s/S or a click on a title; nil for the tab's own.
    var sort: SortOrder?
    /// The columns as h/l, H/L, -, + and _ arranged them; nil: as the tab gives them.
    var columns: ColumnArrangement?
    /// The rows as last listed, in the tab's order and through its filter: kept until its
    /// rows, its order or its filter change.
    var visible: VisibleRows?
}
