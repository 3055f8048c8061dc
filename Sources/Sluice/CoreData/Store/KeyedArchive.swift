/// A JSON value as the keyed archive Core Data's default value transformers keep a
/// Transformable attribute's value in (`NSSecureUnarchiveFromData`, `NSKeyedUnarchiveFromData`,
/// or none named): byte for byte what Apple's `NSKeyedArchiver` writes for the same
/// `NSString`, `NSNumber`, `NSArray`, `NSDictionary` and `NSNull` objects, so that the app reads
/// the value back and a re-import of the same value writes the same bytes (no update).
///
/// The archive is a binary property list (`BinaryPropertyList.write`, Core Foundation's
/// layout) of `$version` 100000, `$objects`, `$archiver` "NSKeyedArchiver" and `$top` {root:
/// UID 1}, in the order Core Foundation's dictionary holds these four keys. `$objects` starts
/// with "$null"; each object takes the next slot when the encoder first meets it, before what
/// it holds, and its class dictionary (`$classname`, `$classes`, one per class) the next slot
/// after what it holds: an array is {NS.objects, $class}, a dictionary {NS.keys, NS.objects,
/// $class} with every key before any value, `null` one `NSNull` {$class}; strings and numbers
/// are the objects themselves.
///
/// Apple's encoder shares an object met twice by identity, which a JSON value does not have:
/// here equal strings share one slot, as equal numbers of one kind do (an integer never
/// shares with a real, nor `true` with 1), and arrays and dictionaries never do. An app whose
/// own value held two distinct string objects of equal text gets two slots from Apple's
/// encoder, and one here: the same value when read.
///
/// In the property list, too, Apple's archiver shares a string by identity, not by value: a
/// class name is a new string each time it is asked for, unless it is short enough for a
/// tagged pointer (`NSArray`, `NSNull`, `NSObject`, and every key the archiver writes, which
/// are constants), so `NSDictionary` is written twice, as `$classname` and as the first of
/// `$classes` (as in every real archive of a dictionary we have), and a string of the value
/// equal to it is a third. Other equal strings are written once.
enum KeyedArchive {
    /// The classes an archive of a JSON value holds, as `$classes` names them.
    static let arrayClass = "NSArray", dictionaryClass = "NSDictionary", nullClass = "NSNull"

    /// The transformer names whose values are such an archive: Core Data's default (no name),
    /// its secure and plain keyed unarchivers, and the secure one's class name (which
    /// `NSValueTransformer` also finds). Any other transformer is the app's own.
    static let defaultTransformers: Set<String> = ["", "NSSecureUnarchiveFromData", "NSKeyedUnarchiveFromData",
                                                   "NSSecureUnarchiveFromDataTransformer"]

    /// The archive of `value`. A number without fraction or exponent within 64 bits is an
    /// integer, any other the nearest double (beyond the double range an error); an object's
    /// key given twice keeps its last value, where that last one stands.
    static func archive(_ value: JSONValue) throws(ConversionError) -> [UInt8] {
        var archiver = Archiver()
        let root = try archiver.encode(value)
        return BinaryPropertyList.write(.dictionary([
            ("$version", .integer(100_000)), ("$objects", .array(archiver.objects)),
            ("$archiver", .string("NSKeyedArchiver")), ("$top", .dictionary([("root", .uid(root))])),
        ]), unsharedStrings: [dictionaryClass])
    }

    /// The JSON value an archive of property list objects holds (what Core Data's default
    /// transformer reads back): reals as their shortest text, integers as their digits.
    static func value(of bytes: [UInt8]) throws(BinaryPropertyList.Error) -> JSONValue {
        let archive = try BinaryPropertyList.read(bytes)
        guard archive["$archiver"]?.string == "NSKeyedArchiver", archive["$version"]?.integer == 100_000,
              let objects = archive["$objects"]?.array, case .uid(let root)? = archive["$top"]?["root"]
        else {
            throw BinaryPropertyList.Error(message: "not a keyed archive ($archiver, $version, $objects, $top)")
        }
        var reader = Unarchiver(objects: objects)
        return try reader.value(root, depth: 0)
    }

    private struct Archiver {
        var objects: [PropertyList] = [.string("$null")]
        var shared: [Shared: UInt64] = [:]
        var classes: [String: UInt64] = [:]

        /// What shares one slot: equal strings (by their characters), numbers of one kind, `null`.
        enum Shared: Hashable {
            case string([UInt8])
            case integer(Int64)
            case real(Double)
            case bool(Bool)
            case null
        }

        /// The slot of `value`, added with what it holds when new.
        mutating func encode(_ value: JSONValue) throws(ConversionError) -> UInt64 {
            switch value {
            case .string(let text):
                return share(.string(Array(text.utf8)), .string(text))
            case .bool(let flag):
                return share(.bool(flag), .bool(flag))
            case .number(let text):
                let number = try Self.number(text)
                if case .integer(let whole) = number { return share(.integer(whole), number) }
                if case .real(let real) = number { return share(.real(real), number) }
                preconditionFailure("a number is an integer or a real")
            case .null:
                if let slot = shared[.null] { return slot }
                let slot = reserve()
                shared[.null] = slot
                let type = classSlot(KeyedArchive.nullClass)
                objects[Int(slot)] = .dictionary([("$class", .uid(type))])
                return slot
            case .array(let elements):
                let slot = reserve()
                var references: [PropertyList] = []
                references.reserveCapacity(elements.count)
                for element in elements { references.append(.uid(try encode(element))) }
                let type = classSlot(KeyedArchive.arrayClass)
                objects[Int(slot)] = .dictionary([("NS.objects", .array(references)), ("$class", .uid(type))])
                return slot
            case .object(let members):
                let slot = reserve()
                let kept = Self.lastOfEachKey(members)
                var keys: [PropertyList] = []
                var values: [PropertyList] = []
                for member in kept { keys.append(.uid(share(.string(Array(member.key.utf8)), .string(member.key)))) }
                for member in kept { values.append(.uid(try encode(member.value))) }
                let type = classSlot(KeyedArchive.dictionaryClass)
                objects[Int(slot)] = .dictionary([("NS.keys", .array(keys)), ("NS.objects", .array(values)), ("$class", .uid(type))])
                return slot
            }
        }

        mutating func reserve() -> UInt64 {
            objects.append(.string("$null"))
            return UInt64(objects.count - 1)
        }

        mutating func share(_ key: Shared, _ object: PropertyList) -> UInt64 {
            if let slot = shared[key] { return slot }
            objects.append(object)
            shared[key] = UInt64(objects.count - 1)
            return UInt64(objects.count - 1)
        }

        /// The class dictionary's slot, added at the class's first use.
        mutating func classSlot(_ name: String) -> UInt64 {
            if let slot = classes[name] { return slot }
            objects.append(.dictionary([("$classname", .string(name)), ("$classes", .array([.string(name), .string("NSObject")]))]))
            classes[name] = UInt64(objects.count - 1)
            return UInt64(objects.count - 1)
        }

        /// An `NSNumber`'s property list value: integer when written whole within 64 bits.
        static func number(_ text: String) throws(ConversionError) -> PropertyList {
            let bytes = Array(text.utf8)
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(ConversionError) -> PropertyList in
                    if let number = NumberText(raw), number.isPlainInteger, case .value(let whole) = number.integer(in: raw) {
                        return .integer(whole)
                    }
                    return .real(try ValueConverter.double(.number(raw), raw))
                }
            }
            return try result.get()
        }

        /// An object's members with each key once, its last value at its last place (the
        /// members of a JSON object may repeat a key; an `NSDictionary`'s keys are distinct).
        static func lastOfEachKey(_ members: [JSONValue.Member]) -> [JSONValue.Member] {
            var seen: Set<[UInt8]> = []
            var kept: [JSONValue.Member] = []
            for member in members.reversed() where seen.insert(Array(member.key.utf8)).inserted { kept.append(member) }
            return kept.count == members.count ? members : kept.reversed()
        }
    }

    /// Reads an archive's objects back to a JSON value; a reference cycle, nesting deeper than
    /// JSON input may have or more than `BinaryPropertyList.maximumObjects` values (shared
    /// objects count at each place) is an error.
    private struct Unarchiver {
        let objects: [PropertyList]
        var open: Set<UInt64> = []
        var decoded = 0

        static let maximumDepth = 1_000

        func fail(_ message: String) -> BinaryPropertyList.Error {
            BinaryPropertyList.Error(message: "keyed archive: " + message)
        }

        mutating func value(_ slot: UInt64, depth: Int) throws(BinaryPropertyList.Error) -> JSONValue {
            guard slot > 0, let index = Int(exactly: slot), index < objects.count else {
                throw fail("reference \(slot) is $null or out of range")
            }
            guard depth < Self.maximumDepth, !open.contains(slot) else { throw fail("objects nested too deep, or a reference cycle") }
            decoded += 1
            guard decoded <= BinaryPropertyList.maximumObjects else { throw fail("more than \(BinaryPropertyList.maximumObjects) values") }
            switch objects[index] {
            case .string(let text): return .string(text)
            case .bool(let flag): return .bool(flag)
            case .integer(let whole): return .number(String(whole))
            case .real(let real): return .number(real.description)
            case .dictionary:
                open.insert(slot)
                defer { open.remove(slot) }
                return try container(objects[index], depth: depth)
            default:
                throw fail("object \(slot) is no string, number, array, dictionary or null")
            }
        }

        mutating func container(_ object: PropertyList, depth: Int) throws(BinaryPropertyList.Error) -> JSONValue {
            guard case .uid(let classSlot)? = object["$class"], let index = Int(exactly: classSlot), index < objects.count,
                  let name = objects[index]["$classname"]?.string
            else { throw fail("an object names no class") }
            func references(_ key: String) throws(BinaryPropertyList.Error) -> [UInt64] {
                guard let elements = object[key]?.array else { throw fail("\(name) holds no \(key)") }
                var slots: [UInt64] = []
                for element in elements {
                    guard case .uid(let slot) = element else { throw fail("\(name).\(key) holds no reference") }
                    slots.append(slot)
                }
                return slots
            }
            switch name {
            case "NSArray", "NSMutableArray":
                var elements: [JSONValue] = []
                for slot in try references("NS.objects") { elements.append(try value(slot, depth: depth + 1)) }
                return .array(elements)
            case "NSDictionary", "NSMutableDictionary":
                let keys = try references("NS.keys"), values = try references("NS.objects")
                guard keys.count == values.count else { throw fail("a dictionary's keys and objects differ in count") }
                var members: [JSONValue.Member] = []
                for (key, slot) in zip(keys, values) {
                    guard case .string(let text) = try value(key, depth: depth + 1) else { throw fail("a dictionary key is no string") }
                    members.append(JSONValue.Member(text, try value(slot, depth: depth + 1)))
                }
                return .object(members)
            case "NSNull":
                return .null
            case "NSString", "NSMutableString":
                guard let text = object["NS.string"]?.string else { throw fail("\(name) holds no NS.string") }
                return .string(text)
            default:
                throw fail("class \(name) is no property list value")
            }
        }
    }
}
