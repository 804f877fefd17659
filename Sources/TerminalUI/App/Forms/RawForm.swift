import DocumentStore
import Foundation

/// The form of a document in a folder Shelf has no model for: a row per top-level field, in
/// the detail pane's order (by name), labelled with the field's name and holding its value in
/// the typed JSON of the store's files (`v`'s text, on one line). A row left alone is not read
/// back from its text: its value is written back as it was, type and all, even one the store
/// would refuse to take anew (a map nested deeper than Firestore allows, written by hand). An emptied row removes its field. The last row adds
/// a field, written `name: JSON value`. Saving writes the whole document (`setData`), so a
/// name with dots or spaces is a name, never a path.
enum RawForm {
    static let newFieldLabel = "new field"

    /// The form for `snapshot`, or for a new document of `collection` (an automatic id) when nil.
    static func spec(_ snapshot: DocumentSnapshot?, in collection: CollectionReference) -> FormSpec {
        let store = collection.firestore
        let stored = snapshot?.data() ?? [:]
        let names = stored.keys.sorted()
        let texts = names.map { snapshot?.storedJSON(ofField: $0) ?? "" }
        let rows = zip(names, texts).map { name, text in
            FormSpec.Field(label: name, text: text, rule: .storedJSON(field: name, in: store, asStored: text))
        }
        let newField = FormSpec.Field(label: newFieldLabel, text: "", rule: .newField(besides: names, in: store))
        return FormSpec(
            title: snapshot.map { "Edit \($0.reference.path)" } ?? "New document in \(collection.collectionID)",
            fields: rows + [newField],
            save: { values in
                var fields: [String: Any] = [:]
                for (index, name) in names.enumerated() where !values[index].trimmed.isEmpty {
                    fields[name] = values[index] == texts[index] ? stored[name] : try store.value(fromStoredJSON: values[index], field: name)
                }
                if let added = try Self.newField(values[names.count]).get() {
                    fields[added.name] = try store.value(fromStoredJSON: added.value, field: added.name)
                }
                if snapshot == nil && fields.isEmpty {
                    throw FormError("nothing to add: write a field in the \(newFieldLabel) row, as name: JSON value")
                }
                return .fields(fields, over: snapshot, in: collection)
            })
    }

    /// The new-field row split into the field's name and its value's text: `pages: 42`, or with
    /// the name in JSON quotes when it holds a colon (`"a: b": 1`). Nil for an empty row.
    static func newField(_ text: String) -> Result<(name: String, value: String)?, FormError> {
        let text = text.trimmed
        guard !text.isEmpty else { return .success(nil) }
        let name: String
        let rest: Substring
        if text.hasPrefix("\"") {
            // The quoted name ends at the first quote not escaped by a backslash.
            var escaped = false
            guard let end = text.indices.dropFirst().first(where: { index in
                defer { escaped = text[index] == "\\" && !escaped }
                return text[index] == "\"" && !escaped
            }) else { return .failure(FormError("the quoted name needs its closing \", then : and a JSON value")) }
            let quoted = text[...end]
            guard let decoded = (try? JSONSerialization.jsonObject(with: Data(quoted.utf8), options: .fragmentsAllowed)) as? String else {
                return .failure(FormError("expected the name as a JSON string, found \(quoted.shownInMessage)"))
            }
            name = decoded
            rest = text[text.index(after: end)...].drop { $0 == " " }
            guard rest.first == ":" else { return .failure(FormError("expected : after the name \(quoted.shownInMessage), then a JSON value")) }
        } else {
            guard let colon = text.firstIndex(of: ":") else {
                return .failure(FormError("expected name: JSON value, such as pages: 42 or title: \"Dune\""))
            }
            name = text[..<colon].trimmed
            rest = text[colon...]
            guard !name.isEmpty else { return .failure(FormError("expected a field name before the :")) }
        }
        let value = rest.dropFirst().trimmed
        guard !value.isEmpty else { return .failure(FormError("expected a JSON value after \(name.shownInMessage):, such as 42, \"text\" or true")) }
        return .success((name, value))
    }
}

extension FieldRule {
    /// A field's value as typed JSON (`{"$timestamp": "…"}`, `"text"`, `42`); empty removes the field.
    /// `asStored`: the row's text as the form opened, accepted as it is (see `RawForm`).
    static func storedJSON(field name: String, in store: Firestore, asStored: String) -> FieldRule {
        FieldRule(hint: "empty: the field is removed when saved") { text in
            if text.trimmed.isEmpty || text == asStored { return nil }
            do { _ = try store.value(fromStoredJSON: text, field: name); return nil } catch { return "\(error)" }
        }
    }

    /// The row that adds a field: `name: JSON value`, the name not one of `names` (those have
    /// rows of their own); empty adds nothing.
    static func newField(besides names: [String], in store: Firestore) -> FieldRule {
        let taken = Set(names)
        return FieldRule(hint: "name: JSON value, such as pages: 42 or title: \"Dune\"") { text in
            switch RawForm.newField(text) {
            case .failure(let error): return error.description
            case .success(nil): return nil
            case .success(let added?):
                if taken.contains(added.name) { return "\(added.name.shownInMessage) is already a field: edit its row above" }
                do { _ = try store.value(fromStoredJSON: added.value, field: added.name); return nil } catch { return "\(error)" }
            }
        }
    }
}
