extension EntityBatch {
    /// Copies what `record` mentions onto `target`, a record with the same identity; tells
    /// whether any value differed. To-many lists add up (`merge: add`) or the later replaces
    /// the earlier (`replacingLists[relationship]`, `merge: replace`); other links are replaced.
    mutating func merge(_ record: Int, into target: Int, replacingLists: [Bool]) -> Bool {
        var changed = false
        for attribute in 0..<attributeCount {
            let value = values[record * width + attribute]
            guard !value.isMissing else { continue }
            let same = bytes.withUnsafeBytes { bytes in
                values[target * width + attribute].equals(value, in: bytes, otherArena: bytes)
            }
            // Both cells' bytes are in this batch's arena: the target can point at them.
            if !same {
                values[target * width + attribute] = value
                changed = true
            }
        }
        for relationship in 0..<relationshipCount {
            guard let link = self[link: record * relationshipCount + relationship] else { continue }
            let index = target * relationshipCount + relationship
            if ownLinks[index] == nil { ownLinks[index] = .some(self[link: index]) }
            if !replacingLists[relationship], case .many(let added) = link, case .many(let list)? = self[link: index] {
                self[link: index] = .many(list + added)
            } else {
                // A list added after a `null` still unlinks what the `null` did: the row's
                // records decide in order, in one batch as in several.
                if !replacingLists[relationship], case .many = link, case .clear? = self[link: index] {
                    clearedBeforeList.insert(index)
                } else if !clearedBeforeList.isEmpty {
                    clearedBeforeList.remove(index)
                }
                self[link: index] = link
            }
        }
        return changed
    }
}
