/// One labelled field of a `FormWidget`, with the message of its last validation (nil when
/// the value is fine).
public struct FormField: Hashable, Sendable {
    public var label: String
    public var field: TextField
    public var message: String?

    public init(label: String, text: String = "", placeholder: String = "", message: String? = nil) {
        self.label = label
        self.field = TextField(text: text, placeholder: placeholder)
        self.message = message
    }

    public var text: String {
        get { field.text }
        set { field.text = newValue }
    }
}
