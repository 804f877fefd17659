/// One field of a `DetailWidget`: a label and its value.
public struct DetailLine: Hashable, Sendable {
    public var label: String
    public var value: String
    public var valueStyle: Style

    public init(_ label: String, _ value: String, valueStyle: Style = .plain) {
        self.label = label
        self.value = value
        self.valueStyle = valueStyle
    }
}
