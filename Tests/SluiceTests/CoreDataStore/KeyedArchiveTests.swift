import SluiceTestSupport
import Testing
@testable import Sluice

/// The keyed archive of Core Data's default value transformers (`KeyedArchive`): one written
/// out from the format's definition, byte for byte, and round trips of generated JSON values
/// through the project's own reader.
@Suite struct KeyedArchiveTests {
    /// `["x", 1, 2.5, true, null, {"k": "x"}]` as `NSKeyedArchiver` writes it: `$objects` in
    /// the order the encoder meets them (the array, its elements, `NSNull` and its class, the
    /// dictionary, its key, then the classes as their objects end), "x" one slot for both of its
    /// places; in the property list every string once but "NSDictionary" (a new string for
    /// `$classname` and for `$classes`, objects 40 and 42), a UID written at each place but
    /// referenced at its first (object 36, "UID 2" again), one-byte references (50 objects),
    /// two-byte offsets.
    static let expected: [String] = [
            "62 70 6c 69 73 74 30 30",  // "bplist00"
            "d4 01 02 03 04 05 06 2e 2f",  // 0: dictionary: keys [1, 2, 3, 4], values [5, 6, 46, 47]
            "58 24 76 65 72 73 69 6f 6e",  // 1: "$version"
            "58 24 6f 62 6a 65 63 74 73",  // 2: "$objects"
            "59 24 61 72 63 68 69 76 65 72",  // 3: "$archiver"
            "54 24 74 6f 70",  // 4: "$top"
            "12 00 01 86 a0",  // 5: integer 100000
            "ac 07 08 13 14 15 16 17 19 1f 26 27 2b",  // 6: array of [7, 8, 19, 20, 21, 22, 23, 25, 31, 38, 39, 43]
            "55 24 6e 75 6c 6c",  // 7: "$null"
            "d2 09 0a 0b 12",  // 8: dictionary: keys [9, 10], values [11, 18]
            "5a 4e 53 2e 6f 62 6a 65 63 74 73",  // 9: "NS.objects"
            "56 24 63 6c 61 73 73",  // 10: "$class"
            "a6 0c 0d 0e 0f 10 11",  // 11: array of [12, 13, 14, 15, 16, 17]
            "80 02",  // 12: UID 2
            "80 03",  // 13: UID 3
            "80 04",  // 14: UID 4
            "80 05",  // 15: UID 5
            "80 06",  // 16: UID 6
            "80 08",  // 17: UID 8
            "80 0b",  // 18: UID 11
            "51 78",  // 19: "x"
            "10 01",  // 20: integer 1
            "23 40 04 00 00 00 00 00 00",  // 21: real 2.5
            "09",  // 22: true
            "d1 0a 18",  // 23: dictionary: keys [10], values [24]
            "80 07",  // 24: UID 7
            "d2 1a 1b 1c 1d",  // 25: dictionary: keys [26, 27], values [28, 29]
            "5a 24 63 6c 61 73 73 6e 61 6d 65",  // 26: "$classname"
            "58 24 63 6c 61 73 73 65 73",  // 27: "$classes"
            "56 4e 53 4e 75 6c 6c",  // 28: "NSNull"
            "a2 1c 1e",  // 29: array of [28, 30]
            "58 4e 53 4f 62 6a 65 63 74",  // 30: "NSObject"
            "d3 20 09 0a 21 23 25",  // 31: dictionary: keys [32, 9, 10], values [33, 35, 37]
            "57 4e 53 2e 6b 65 79 73",  // 32: "NS.keys"
            "a1 22",  // 33: array of [34]
            "80 09",  // 34: UID 9
            "a1 0c",  // 35: array of [12]
            "80 02",  // 36: UID 2
            "80 0a",  // 37: UID 10
            "51 6b",  // 38: "k"
            "d2 1a 1b 28 29",  // 39: dictionary: keys [26, 27], values [40, 41]
            "5c 4e 53 44 69 63 74 69 6f 6e 61 72 79",  // 40: "NSDictionary"
            "a2 2a 1e",  // 41: array of [42, 30]
            "5c 4e 53 44 69 63 74 69 6f 6e 61 72 79",  // 42: "NSDictionary"
            "d2 1a 1b 2c 2d",  // 43: dictionary: keys [26, 27], values [44, 45]
            "57 4e 53 41 72 72 61 79",  // 44: "NSArray"
            "a2 2c 1e",  // 45: array of [44, 30]
            "5f 10 0f 4e 53 4b 65 79 65 64 41 72 63 68 69 76 65 72",  // 46: "NSKeyedArchiver"
            "d1 30 31",  // 47: dictionary: keys [48], values [49]
            "54 72 6f 6f 74",  // 48: "root"
            "80 01",  // 49: UID 1
            "00 08 00 11 00 1a 00 23 00 2d 00 32 00 37 00 44 00 4a 00 4f 00 5a 00 61 00 68 00 6a 00 6c 00 6e 00 70 00 72 00 74 00 76 00 78 00 7a 00 83 00 84 00 87 00 89 00 8e 00 99 00 a2 00 a9 00 ac 00 b5 00 bc 00 c4 00 c6 00 c8 00 ca 00 cc 00 ce 00 d0 00 d5 00 e2 00 e5 00 f2 00 f7 00 ff 01 02 01 14 01 17 01 1c",  // offsets of the 50 objects, 2 byte each
            "00 00 00 00 00 00 02 01 00 00 00 00 00 00 00 32 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01 1e",  // trailer: offset size 2, reference size 1, 50 objects, top 0, table at 286
    ]

    static func bytes(_ lines: [String]) -> [UInt8] {
        lines.flatMap { line in line.split(separator: " ").map { UInt8($0, radix: 16)! } }
    }

    @Test func anArchiveIsWrittenAsTheFormatDefinesIt() throws {
        let value = JSONValue.array([.string("x"), .number("1"), .number("2.5"), .bool(true), .null,
                                     .object([JSONValue.Member("k", .string("x"))])])
        let written = try KeyedArchive.archive(value)
        #expect(written == Self.bytes(Self.expected))
        #expect(try KeyedArchive.value(of: written) == value)
    }

    /// A string is the object itself; the archive's smallest form (the root at slot 1).
    @Test func aScalarIsTheRootObjectItself() throws {
        let archive = try BinaryPropertyList.read(KeyedArchive.archive(.string("é")))
        #expect(archive["$objects"] == .array([.string("$null"), .string("é")]))
        #expect(archive["$top"] == .dictionary([("root", .uid(1))]))
        #expect(archive["$archiver"] == .string("NSKeyedArchiver") && archive["$version"] == .integer(100_000))
    }

    /// Numbers: whole within 64 bits an integer, else the nearest double; an integer and a
    /// real of one value are two objects, as `true` and 1 are.
    @Test func numbersAreIntegersOrReals() throws {
        let archive = try BinaryPropertyList.read(KeyedArchive.archive(.array([
            .number("1"), .number("1.0"), .bool(true), .number("-9223372036854775808"), .number("9223372036854775808"),
            .number("1e3"), .number("-0"), .number("1"),
        ])))
        let objects = archive["$objects"]?.array ?? []
        #expect(Array(objects.dropFirst(2).prefix(7)) == [
            .integer(1), .real(1), .bool(true), .integer(Int64.min), .real(9_223_372_036_854_775_808), .real(1000), .integer(0),
        ])
        #expect(objects[1]["NS.objects"] == .array([2, 3, 4, 5, 6, 7, 8, 2].map { .uid($0) }))
        #expect(throws: ConversionError.self) { try KeyedArchive.archive(.number("1e400")) }
    }

    /// Equal strings share a slot, keys and values alike; equal containers never do; an
    /// object's repeated key keeps its last value.
    @Test func whatSharesASlot() throws {
        let value = JSONValue.array([.object([JSONValue.Member("a", .string("a")), JSONValue.Member("b", .number("1")),
                                             JSONValue.Member("a", .string("z"))]),
                                     .array([]), .array([]), .null, .null])
        let archive = try BinaryPropertyList.read(KeyedArchive.archive(value))
        let objects = archive["$objects"]?.array ?? []
        // $null, outer array, the object, "b", "a", 1, "z", NSDictionary, [], NSArray, [], NSNull, its class.
        #expect(objects.count == 13)
        #expect(objects[2]["NS.keys"] == .array([.uid(3), .uid(4)]) && objects[2]["NS.objects"] == .array([.uid(5), .uid(6)]))
        #expect(objects[1]["NS.objects"] == .array([2, 8, 10, 11, 11].map { .uid($0) }))
        #expect(try KeyedArchive.value(of: KeyedArchive.archive(value)) == .array([
            .object([JSONValue.Member("b", .number("1")), JSONValue.Member("a", .string("z"))]), .array([]), .array([]), .null, .null,
        ]))
    }

    /// Generated values, written and read back by the project's reader, are the value Core
    /// Data reads: numbers as their integer or double, a repeated key's last value.
    @Test func generatedValuesReadBackTheSame() throws {
        var random = PropertyRandom(seed: 0xA4C1_1E5)
        for _ in 0..<500 {
            let value = Self.generated(&random, depth: 0)
            let archive = try KeyedArchive.archive(value)
            #expect(try KeyedArchive.value(of: archive) == Self.asRead(value), "\(value)")
            // The same value is the same bytes: a re-import changes nothing.
            #expect(try KeyedArchive.archive(value) == archive)
        }
    }

    static func generated(_ random: inout PropertyRandom, depth: Int) -> JSONValue {
        switch random.below(depth > 3 ? 4 : 7) {
        case 0: return .string(random.pick(PropertyValues.texts))
        case 1: return .number(random.pick(PropertyValues.numbers))
        case 2: return random.chance(50) ? .bool(random.chance(50)) : .null
        case 3: return .string(random.pick(["k", "v", "NSArray", "$null", "$class"]))
        case 4, 5:
            return .array((0..<random.below(18)).map { _ in generated(&random, depth: depth + 1) })
        default:
            let keys = PropertyValues.texts + ["k", "v"]
            return .object((0..<random.below(18)).map { _ in JSONValue.Member(random.pick(keys), generated(&random, depth: depth + 1)) })
        }
    }

    /// The value as Core Data reads the archive back: a number whole within 64 bits as its
    /// integer, any other as its double's shortest text; an object's repeated key its last value.
    static func asRead(_ value: JSONValue) -> JSONValue {
        switch value {
        case .number(let text):
            if text.allSatisfy({ $0 == "-" || $0.isNumber }), let whole = Int64(text) { return .number(String(whole)) }
            return .number(Double(text)!.description)
        case .array(let elements):
            return .array(elements.map(asRead))
        case .object(let members):
            let kept = members.enumerated().filter { entry in
                !members[(entry.offset + 1)...].contains { Array($0.key.utf8) == Array(entry.element.key.utf8) }
            }
            return .object(kept.map { JSONValue.Member($0.element.key, asRead($0.element.value)) })
        default:
            return value
        }
    }

    /// Damaged archives are an error, never a crash: every byte of one replaced in turn.
    @Test func damagedArchivesAreAnError() throws {
        let good = Self.bytes(Self.expected)
        for index in good.indices {
            for byte: UInt8 in [0x00, 0xFF, 0x80, 0x0F] {
                var damaged = good
                damaged[index] = byte
                _ = try? KeyedArchive.value(of: damaged)
            }
        }
        let cyclic = BinaryPropertyList.write(.dictionary([
            ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")), ("$top", .dictionary([("root", .uid(1))])),
            ("$objects", .array([.string("$null"), .dictionary([("NS.objects", .array([.uid(1)])), ("$class", .uid(2))]),
                                 .dictionary([("$classname", .string("NSArray"))])])),
        ]))
        #expect(throws: BinaryPropertyList.Error(message: "keyed archive: objects nested too deep, or a reference cycle")) {
            try KeyedArchive.value(of: cyclic)
        }
    }
}
