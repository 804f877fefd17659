/// Something that draws itself into a rectangle of a canvas (ratatui's `Widget`). Widgets
/// are values built fresh for every frame from the app's state; small state that must
/// outlive a frame (a list's selection and scroll offset) lives in the app and is passed in,
/// and `render` keeps it valid for the area it is given.
public protocol Widget {
    func render(into canvas: inout Canvas, area: Rect)
}
