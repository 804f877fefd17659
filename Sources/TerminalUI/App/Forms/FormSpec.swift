import DocumentStore
import ShelfModels

/// A document's edit form: its fields in the model's order, each with its rule, and how to
/// save the values once every rule passes.
struct FormSpec {
    struct Field {
        var label: String
        var text: String
        var rule: FieldRule
    }

    var title: String
    var fields: [Field]
    /// What saving the values writes (the effect runner writes it, off the main thread);
    /// throws what the user must see when the values cannot make a document.
    var save: ([String]) throws -> FormWrite
}

extension FormSpec {
    /// A new document's form: an Id field first, so the document can be named (`books/dune`)
    /// rather than given an automatic id, which it gets when the field is left blank.
    func choosingID(rules: IDRules) -> FormSpec {
        let rule = FieldRule(hint: "blank: an automatic id") { text in
            text.trimmed.isEmpty ? nil : ResourcePath.problem(withID: text.trimmed, rules: rules).map { "not an id: \($0)" }
        }
        return FormSpec(title: title, fields: [Field(label: "Id", text: "", rule: rule)] + fields) { values in
            let write = try save(Array(values.dropFirst()))
            let id = values.first?.trimmed ?? ""
            return id.isEmpty ? write : write.named(id)
        }
    }
}

/// What a field accepts: `check` returns why a text is not accepted, or nil.
struct FieldRule: Sendable {
    var hint: String
    var check: @Sendable (String) -> String?
    /// A colour to preview beside the field as it is typed.
    var preview: @Sendable (String) -> Color? = { _ in nil }
    var previewsColor = false
    /// A picker's values (the form shows them; ←/→ or Space chooses), and a value on disk
    /// that is none of them, kept until changed.
    var choices: [String]?
    var keptChoice: String?

    static let text = FieldRule(hint: "text") { $0.trimmed.isEmpty ? "required" : nil }
    static let optionalText = FieldRule(hint: "text") { _ in nil }

    /// 0 up to `Int.max`, the largest a document holds (a 64-bit integer); digits beyond
    /// that are too large, not "not a number".
    static let wholeNumber = FieldRule(hint: "a whole number ≥ 0") { text in
        let text = text.trimmed
        if let value = Int(text) { return value < 0 ? "expected a whole number ≥ 0, found \(value)" : nil }
        let sign = text.first.flatMap { "+-".contains($0) ? $0 : nil }
        let digits = sign == nil ? text[...] : text.dropFirst()
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else {
            return "expected a whole number ≥ 0, found \"\(text.shownInMessage)\""
        }
        if sign == "-" { return "expected a whole number ≥ 0, found \(text.shownInMessage)" }
        return "too large: the largest allowed is \(Int.max), found \(text.shownInMessage)"
    }

    static func hexColor(optional: Bool) -> FieldRule {
        FieldRule(hint: "#RGB, #RGBA, #RRGGBB or #RRGGBBAA", check: { text in
            if optional && text.trimmed.isEmpty { return nil }
            do throws(ColorParseError) { _ = try Color(hex: text); return nil } catch { return error.description }
        }, preview: { try? Color(hex: $0) }, previewsColor: true)
    }

    static let url = FieldRule(hint: "https://…") { text in
        text.trimmed.isEmpty || FieldParsing.url(text) != nil ? nil : "expected a URL such as https://example.com/cover.jpg, found \"\(text.trimmed.shownInMessage)\""
    }

    static let date = FieldRule(hint: "YYYY or YYYY-MM-DD") { text in
        FieldParsing.date(text) == nil ? "expected a year (1843) or a date (2014-09-09), found \"\(text.trimmed.shownInMessage)\"" : nil
    }

    static func coordinate(_ name: String, limit: Double) -> FieldRule {
        FieldRule(hint: "-\(Int(limit))…\(Int(limit))") { text in
            guard let value = Double(text.trimmed) else { return "expected a number, found \"\(text.trimmed.shownInMessage)\"" }
            return abs(value) <= limit ? nil : "\(name) must be between -\(Int(limit)) and \(Int(limit)), found \(value)"
        }
    }

    /// A picker over `choices`; `kept`, a value on disk that is none of them, is accepted too
    /// (the document keeps it until another is chosen).
    static func oneOf(_ choices: [String], keeping kept: String? = nil) -> FieldRule {
        let kept = kept.flatMap { choices.contains($0) || $0.isEmpty ? nil : $0 }
        return FieldRule(hint: choices.joined(separator: ", "), check: { text in
            choices.contains(text) || text == kept ? nil : "expected one of: \(choices.joined(separator: ", ")); found \"\(text.trimmed.shownInMessage)\""
        }, choices: choices, keptChoice: kept)
    }

    static let list = FieldRule(hint: "comma-separated") { _ in nil }

    static let tags = FieldRule(hint: "title #hex; title #hex") { text in
        if case .failure(let error) = FieldParsing.tags(text) { return error.description }
        return nil
    }
}

/// Turning form text into model values; the rules above use the same functions, so what
/// validates is exactly what saves.
enum FieldParsing {
    static func url(_ text: String) -> URL? {
        guard let url = URL(string: text.trimmed), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()),
              url.host != nil else { return nil }
        return url
    }

    static func date(_ text: String) -> Date? {
        let text = text.trimmed
        let full = text.count == 4 ? text + "-01-01" : text
        return Timestamp(rfc3339: full + "T00:00:00Z")?.dateValue()
    }

    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmed }.filter { !$0.isEmpty }
    }

    /// "fun #ec4be9; series #b0f566"
    static func tags(_ text: String) -> Result<[Tag], FormError> {
        var tags: [Tag] = []
        for part in text.split(separator: ";").map({ $0.trimmed }) where !part.isEmpty {
            guard let hashIndex = part.lastIndex(of: "#") else { return .failure(FormError("tag \"\(part)\" needs a colour: write it as title #hex")) }
            let title = part[..<hashIndex].trimmed
            guard !title.isEmpty else { return .failure(FormError("tag \"\(part)\" needs a title before its colour")) }
            do throws(ColorParseError) {
                tags.append(Tag(title: title, color: try Color(hex: String(part[hashIndex...]))))
            } catch {
                return .failure(FormError("tag \"\(title)\": \(error.description)"))
            }
        }
        return .success(tags)
    }

    static func tagsText(_ tags: [Tag]) -> String {
        tags.map { "\($0.title) \($0.color.hex)" }.joined(separator: "; ")
    }
}

import Foundation

extension StringProtocol {
    var trimmed: String { trimmingCharacters(in: .whitespaces) }

    /// The text as a message quotes it: at most 40 characters, so a message about a 1 MiB
    /// value stays one line.
    var shownInMessage: String { utf8.count <= 40 ? String(self) : String(prefix(39)) + "…" }
}
