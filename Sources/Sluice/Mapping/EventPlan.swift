/// The part of a `MappingPlan` that the assembler reads on every event, in flat buffers of
/// plain values whose reads retain nothing.
///
/// `MappingPlan` is arrays of structs that hold arrays and strings: reading a key table or a
/// target list out of it cost a retain and a release, and reading an entity's plan a copy
/// with one per field; per key, value and record that was about a tenth of the parse
/// thread. An event plan is built once per import; its buffers belong to the `Storage` that
/// built them, which the assembler keeps alive beside the plan.
struct EventPlan {
    /// A node of the key trie inside records, or of the locations above them.
    struct Node {
        /// Its child keys: `keys[firstKey ..< firstKey + keyCount]`.
        var firstKey: Int32
        var keyCount: Int32
        /// Attributes filled by the value at this path: `targets[firstTarget ..< …]`.
        var firstTarget: Int32
        var targetCount: Int32
        /// Relationships given by the value at this path: `links[firstLink ..< …]`.
        var firstLink: Int32
        var linkCount: Int32
        /// For a location node: the entity whose records stand here, or -1.
        var entity: Int32
        /// For a location node: the records are an object's members, and this attribute
        /// takes each member's name (`MappingPlan.LocationNode.mapAttribute`); or -1.
        var mapAttribute: Int32 = -1
        var hasJSONTarget: Bool
        var hasScalarTarget: Bool
    }

    struct Key {
        /// Its bytes: `keyBytes[start ..< start + count]`.
        var start: Int32
        var count: Int32
        /// The child node, in the table the looked-up node belongs to.
        var node: Int32
        /// Its first and last bytes as two words (`KeyWords`): a key of up to 16 bytes is
        /// matched by comparing them, a longer one by `memcmp` after them.
        var words: KeyWords
    }

    /// A key's bytes read as two words: its first eight and its last eight bytes (which
    /// overlap below 16 bytes), four and four below 8 bytes, the bytes themselves below 4.
    /// Two keys of the same length up to 16 bytes are equal exactly when their words are.
    ///
    /// Why: most keys are short, and comparing two words in line cost less than a call to
    /// `memcmp` per key (callgrind, W1 at scale 0.01: the key lookup 18 instructions a key fewer).
    struct KeyWords: Equatable {
        var head: UInt64 = 0
        var tail: UInt64 = 0

        static let empty = KeyWords()

        private init() {}

        @inline(__always)  // forced: docs/performance.md#forced-inlining
        init(_ base: UnsafeRawPointer, count: Int) {
            if count >= 8 {
                head = base.loadUnaligned(as: UInt64.self)
                tail = base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            } else if count >= 4 {
                head = UInt64(base.loadUnaligned(as: UInt32.self))
                tail = UInt64(base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            } else {
                head = 0
                for index in 0..<count { head = head << 8 | UInt64(base.load(fromByteOffset: index, as: UInt8.self)) }
                tail = 0
            }
        }
    }

    /// An attribute or relationship index with the fallback priority of the key (0 = the
    /// first key listed).
    struct Target {
        var index: Int32
        var priority: Int32
    }

    struct Entity {
        var attributeCount: Int32
        var relationshipCount: Int32
        /// The key trie node of the record object itself.
        var rootNode: Int32
        /// Where its attributes start in `attributes` and `converters`.
        var firstAttribute: Int32
        /// Whether it belongs to a family (`MappingPlan.shapes`): its records are completed by
        /// `completeFamilyRecord`.
        var isFamilyMember: Bool
        /// Whether completing a record checks its values: some attribute is required or takes
        /// a default when missing.
        var checksValues: Bool
        /// Where its relationships start in `relationships`.
        var firstRelationship: Int32
    }

    /// What a bare id's value needs of a relationship, flat (`MappingPlan.RelationshipPlan`).
    struct Relationship {
        var toMany: Bool
        /// Its `relatedBy` attribute is a string: a string's or number's bare id is the
        /// `.text` of its bytes, and converting it cannot fail.
        var keyIsText: Bool
    }

    struct Attribute {
        var type: AttributeType
        var optional: Bool
        var defaultWhenMissing: Bool
        var hasDefault: Bool
    }

    let keyNodes: UnsafeBufferPointer<Node>
    let locationNodes: UnsafeBufferPointer<Node>
    let keys: UnsafeBufferPointer<Key>
    let keyBytes: UnsafeBufferPointer<UInt8>
    let targets: UnsafeBufferPointer<Target>
    let links: UnsafeBufferPointer<Target>
    let entities: UnsafeBufferPointer<Entity>
    let attributes: UnsafeBufferPointer<Attribute>
    let relationships: UnsafeBufferPointer<Relationship>
    /// Indexed like `attributes`.
    let converters: UnsafeMutableBufferPointer<ValueConverter>

    /// The child of `node` (of the same table) under `key`; nil when the key is not mapped.
    func child(of node: Node, _ key: UnsafeRawBufferPointer) -> Int? {
        Self.keyIndex(in: keys, keyBytes: keyBytes, from: Int(node.firstKey), count: Int(node.keyCount), key, hint: -1)
            .map { Int(keys[$0].node) }
    }

    /// The index in `keys` of `key` among `keys[start ..< start + keyCount]` (a node's keys),
    /// trying the index `hint` first (`KeyMatcher`): records mostly list their keys in the same
    /// order, so the next key is most often the one that followed the last one before.
    /// Static, on the two buffers it reads: where the compiler did not inline a method on the
    /// whole plan, it copied the plan (nine buffers) to call it.
    static func keyIndex(in keys: UnsafeBufferPointer<Key>, keyBytes: UnsafeBufferPointer<UInt8>,
                         from start: Int, count keyCount: Int, _ key: UnsafeRawBufferPointer, hint: Int) -> Int? {
        let end = start + keyCount
        guard let base = key.baseAddress else {
            return (start..<end).first { keys[$0].count == 0 }  // the empty key, which has no bytes
        }
        let count = key.count
        let words = KeyWords(base, count: count)
        func matches(_ entry: Key) -> Bool {
            entry.count == Int32(truncatingIfNeeded: count) && entry.words == words
                && (count <= 16 || MemoryBytes.equal(keyBytes.baseAddress! + Int(entry.start), base, count: count))
        }
        // Then on from the hint, and around: a record that lacks a key lists the ones after it
        // a few places further on.
        var first = start, last = end
        if hint >= start && hint < end {
            if matches(keys[hint]) { return hint }
            first = hint + 1
            last = hint
        }
        var index = first
        while index != last {
            if index == end {
                index = start
                if index == last { break }
            }
            if matches(keys[index]) { return index }
            index += 1
        }
        return nil
    }

    func targets(of node: Node) -> UnsafeBufferPointer<Target> {
        UnsafeBufferPointer(rebasing: targets[Int(node.firstTarget) ..< Int(node.firstTarget + node.targetCount)])
    }

    func links(of node: Node) -> UnsafeBufferPointer<Target> {
        UnsafeBufferPointer(rebasing: links[Int(node.firstLink) ..< Int(node.firstLink + node.linkCount)])
    }

    /// Owns an event plan's buffers: they live as long as it does.
    final class Storage {
        let plan: EventPlan

        init(_ mapping: MappingPlan) {
            var keys: [Key] = []
            var keyBytes: [UInt8] = []
            var targets: [Target] = []
            var links: [Target] = []
            func node(_ table: KeyTable, entity: Int?) -> Node {
                let firstKey = Int32(keys.count)
                for (key, child) in table.keys {
                    let words = key.withUnsafeBytes { bytes in
                        bytes.baseAddress.map { KeyWords($0, count: bytes.count) } ?? .empty
                    }
                    keys.append(Key(start: Int32(keyBytes.count), count: Int32(key.count), node: Int32(child), words: words))
                    keyBytes.append(contentsOf: key)
                }
                return Node(firstKey: firstKey, keyCount: Int32(keys.count) - firstKey, firstTarget: 0, targetCount: 0,
                            firstLink: 0, linkCount: 0, entity: entity.map(Int32.init) ?? -1,
                            hasJSONTarget: false, hasScalarTarget: false)
            }
            let keyNodes = mapping.keyNodes.map { keyNode in
                var flat = node(keyNode.children, entity: nil)
                flat.firstTarget = Int32(targets.count)
                targets += keyNode.targets.map { Target(index: Int32($0.attribute), priority: Int32($0.priority)) }
                flat.targetCount = Int32(targets.count) - flat.firstTarget
                flat.firstLink = Int32(links.count)
                links += keyNode.links.map { Target(index: Int32($0.relationship), priority: Int32($0.priority)) }
                flat.linkCount = Int32(links.count) - flat.firstLink
                flat.hasJSONTarget = keyNode.hasJSONTarget
                flat.hasScalarTarget = keyNode.hasScalarTarget
                return flat
            }
            let locationNodes = mapping.locationNodes.map { location in
                var flat = node(location.children, entity: location.entity)
                flat.mapAttribute = location.mapAttribute.map(Int32.init) ?? -1
                return flat
            }
            var entities: [Entity] = []
            var attributes: [Attribute] = []
            var converters: [ValueConverter] = []
            var relationships: [Relationship] = []
            for entity in mapping.shapes {
                entities.append(Entity(attributeCount: Int32(entity.attributes.count),
                                       relationshipCount: Int32(entity.relationships.count),
                                       rootNode: Int32(entity.rootNode), firstAttribute: Int32(attributes.count),
                                       isFamilyMember: !entity.attributeMembers.isEmpty,
                                       checksValues: entity.attributes.contains { attribute in
                                           !attribute.optional || attribute.defaultWhenMissing && attribute.defaultValue != nil
                                       },
                                       firstRelationship: Int32(relationships.count)))
                relationships += entity.relationships.map { relationship in
                    Relationship(toMany: relationship.toMany, keyIsText: relationship.relatedBy?.converter.type == .string)
                }
                for attribute in entity.attributes {
                    attributes.append(Attribute(type: attribute.type, optional: attribute.optional,
                                                defaultWhenMissing: attribute.defaultWhenMissing,
                                                hasDefault: attribute.defaultValue != nil))
                    converters.append(attribute.converter)
                }
            }
            plan = EventPlan(keyNodes: Self.copy(keyNodes), locationNodes: Self.copy(locationNodes),
                             keys: Self.copy(keys), keyBytes: Self.copy(keyBytes), targets: Self.copy(targets),
                             links: Self.copy(links), entities: Self.copy(entities),
                             attributes: Self.copy(attributes), relationships: Self.copy(relationships),
                             converters: Self.copyMutable(converters))
        }

        deinit {
            plan.keyNodes.deallocate()
            plan.locationNodes.deallocate()
            plan.keys.deallocate()
            plan.keyBytes.deallocate()
            plan.targets.deallocate()
            plan.links.deallocate()
            plan.entities.deallocate()
            plan.attributes.deallocate()
            plan.relationships.deallocate()
            _ = plan.converters.deinitialize()
            plan.converters.deallocate()
        }

        private static func copy<Element>(_ array: [Element]) -> UnsafeBufferPointer<Element> {
            UnsafeBufferPointer(copyMutable(array))
        }

        private static func copyMutable<Element>(_ array: [Element]) -> UnsafeMutableBufferPointer<Element> {
            let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: array.count)
            _ = buffer.initialize(from: array)
            return buffer
        }
    }
}
