/// Firestore's `DocumentChange` list between two results: removals, then additions, then
/// modifications, each in the query's order, each index taken in the results as they stand
/// at that step, so applying the changes in turn to the old results gives the new ones.
enum ChangeSteps {
    /// Applies the changes to `current` (the old results, in place) and returns them.
    static func apply(removed: [QueryDocumentSnapshot], added: [QueryDocumentSnapshot],
                      modified: [(old: QueryDocumentSnapshot, new: QueryDocumentSnapshot)],
                      to current: inout [QueryDocumentSnapshot], evaluator: QueryEvaluator) -> [DocumentChange] {
        if current.isEmpty && removed.isEmpty && modified.isEmpty {  // a first snapshot: all added, in order
            current = evaluator.isSorted(added) ? added : evaluator.sorted(added)
            return current.enumerated().map { index, document in
                DocumentChange(type: .added, document: document, oldIndex: DocumentChange.notFound, newIndex: UInt(index))
            }
        }
        var changes: [DocumentChange] = []
        changes.reserveCapacity(removed.count + added.count + modified.count)
        for document in removed.sorted(by: evaluator.areInIncreasingOrder) {
            let index = position(of: document, in: current, evaluator)
            current.remove(at: index)
            changes.append(DocumentChange(type: .removed, document: document, oldIndex: UInt(index), newIndex: DocumentChange.notFound))
        }
        for document in added.sorted(by: evaluator.areInIncreasingOrder) {
            let index = insertionIndex(of: document, in: current, evaluator)
            current.insert(document, at: index)
            changes.append(DocumentChange(type: .added, document: document, oldIndex: DocumentChange.notFound, newIndex: UInt(index)))
        }
        for (before, after) in modified.sorted(by: { evaluator.areInIncreasingOrder($0.new, $1.new) }) {
            let oldIndex = position(of: before, in: current, evaluator)
            current.remove(at: oldIndex)
            let newIndex = insertionIndex(of: after, in: current, evaluator)
            current.insert(after, at: newIndex)
            changes.append(DocumentChange(type: .modified, document: after, oldIndex: UInt(oldIndex), newIndex: UInt(newIndex),
                                          isMetadataOnly: after.differsOnlyInMetadata(from: before)))
        }
        return changes
    }

    /// Where `document` goes in `sorted` (binary search: the order ends with the path, so
    /// there are no ties).
    static func insertionIndex(of document: QueryDocumentSnapshot, in sorted: [QueryDocumentSnapshot], _ evaluator: QueryEvaluator) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if evaluator.compare(sorted[mid], document) < 0 { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The index of this very snapshot in `sorted`.
    static func position(of document: QueryDocumentSnapshot, in sorted: [QueryDocumentSnapshot], _ evaluator: QueryEvaluator) -> Int {
        let guess = insertionIndex(of: document, in: sorted, evaluator)
        if guess < sorted.count && sorted[guess] === document { return guess }
        return sorted.firstIndex { $0 === document }!
    }
}
