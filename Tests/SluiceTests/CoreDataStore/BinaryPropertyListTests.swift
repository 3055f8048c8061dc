import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

@Suite struct BinaryPropertyListTests {
    /// What Core Data's metadata holds, and what a writer must get right besides: counts of 15
    /// and more (an extra length integer), integers of every width, text beyond ASCII (UTF-16),
    /// empty containers.
    static let values: [PropertyList] = [
        .dictionary([
            ("NSStoreType", .string("SQLite")),
            ("NSStoreModelVersionHashes", .dictionary([("Ab", .data(Array(0..<32))), ("Çé ✓ 𝄞", .data([]))])),
            ("NSStoreModelVersionIdentifiers", .array([.string("")])),
            ("numbers", .array([.integer(0), .integer(255), .integer(256), .integer(65_535), .integer(65_536),
                                .integer(4_294_967_296), .integer(-1), .integer(Int64.min), .integer(Int64.max)])),
            ("flags", .array([.bool(true), .bool(false)])),
            ("real", .real(0.1)), ("date", .date(791_474_371.29)), ("uid", .uid(300)),
            ("long", .string(String(repeating: "x", count: 300))), ("empty", .array([])),
            ("many", .array((0..<40).map { .integer(Int64($0)) })),
        ]),
        .string("top-level string"),
        .array((0..<300).map { .string("s\($0)") }),
    ]

    @Test(arguments: values)
    func whatIsWrittenReadsBackTheSame(_ value: PropertyList) throws {
        #expect(try BinaryPropertyList.read(BinaryPropertyList.write(value)) == value)
    }

    @Test func textBeyondASCIIIsWrittenAsUTF16() {
        let bytes = BinaryPropertyList.write(.string("é"))
        #expect(bytes[8] == 0x61 && bytes[9] == 0x00 && bytes[10] == 0xE9)
    }

    @Test(arguments: FixtureStore.all)
    func everyRealStoresMetadataIsRead(_ fixture: FixtureStore) throws {
        let directory = TemporaryDirectory()
        let metadata = try StoreContents.metadata(Connection(path: try fixture.copy(into: directory), mode: .readOnly))
        #expect(metadata["NSStoreType"] == .string("SQLite"))
        #expect(metadata["NSStoreModelVersionHashesVersion"] == .integer(3))
        #expect(metadata["_NSAutoVacuumLevel"] == .string("2"))
        #expect(metadata["NSStoreModelVersionIdentifiers"] == .array([.string(fixture.versionIdentifier)]))
        // Written again and read back, Core Data's plist is the same value.
        #expect(try BinaryPropertyList.read(BinaryPropertyList.write(metadata)) == metadata)
    }

    /// Read and written again, the metadata Core Data wrote is the same bytes: the writer's
    /// object order, uniquing and sizes are Core Foundation's.
    @Test(arguments: FixtureStore.all)
    func everyRealStoresMetadataIsWrittenAsCoreDataWroteIt(_ fixture: FixtureStore) throws {
        let directory = TemporaryDirectory()
        let connection = try Connection(path: try fixture.copy(into: directory), mode: .readOnly)
        defer { connection.close() }
        guard case .blob(let bytes)? = try connection.rows("SELECT Z_PLIST FROM Z_METADATA").first?.first else {
            Issue.record("no metadata")
            return
        }
        #expect(BinaryPropertyList.write(try BinaryPropertyList.read(bytes)) == bytes)
    }

    /// Core Foundation's uniquing: an equal string or number is one object, an integer never a
    /// real's; a UID or boolean is written at each place and referenced at its first; equal
    /// containers are two objects.
    @Test func equalObjectsAreUniquedAsCoreFoundationDoes() throws {
        let bytes = BinaryPropertyList.write(.array([.string("a"), .string("a"), .integer(1), .real(1), .integer(1), .uid(3), .uid(3),
                                                     .bool(true), .bool(true), .array([]), .array([])]))
        // The array, "a", 1, 1.0, UID 3, UID 3 again, true, true again, [], []: ten objects.
        #expect(Array(bytes[8..<20]) == [0xAB, 1, 1, 2, 3, 2, 4, 4, 6, 6, 8, 9])
        #expect(Array(bytes.suffix(32).prefix(16)) == [0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 10])
    }

    /// References and offsets take the fewest bytes, 3 included: 65,536 objects need 3-byte
    /// references, as Core Foundation writes them.
    @Test func referencesTakeTheFewestBytes() throws {
        let value = PropertyList.array((0..<65_535).map { .integer(Int64($0) + 1_000_000) })
        let bytes = BinaryPropertyList.write(value)
        #expect(bytes[bytes.count - 26] == 3 && bytes[bytes.count - 25] == 3)
        #expect(try BinaryPropertyList.read(bytes) == value)
    }

    /// Truncated, corrupted or hostile bytes are an error, never a crash or a hang.
    @Test func damagedBytesAreAnErrorNotACrash() throws {
        let good = BinaryPropertyList.write(Self.values[0])
        for cut in [0, 8, 20, good.count - 33, good.count - 1] {
            #expect(throws: BinaryPropertyList.Error.self) { try BinaryPropertyList.read(Array(good.prefix(cut))) }
        }
        for index in good.indices {
            for byte: UInt8 in [0x00, 0xFF, 0x0F, 0xDF] {
                var damaged = good
                damaged[index] = byte
                _ = try? BinaryPropertyList.read(damaged)
            }
        }
    }

    @Test func aReferenceCycleIsAnError() throws {
        // Object 0: an array holding object 0.
        var bytes = Array("bplist00".utf8) + [0xA1, 0x00]
        bytes += [0x08]  // offset table: object 0 at 8
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 10]
        #expect(throws: BinaryPropertyList.Error(message: "objects nested too deep, or a reference cycle")) {
            try BinaryPropertyList.read(bytes)
        }
    }

    @Test func notABinaryPropertyList() {
        #expect(throws: BinaryPropertyList.Error(message: "not a binary property list (no bplist00 header and trailer)")) {
            try BinaryPropertyList.read(Array("<?xml version=\"1.0\"?><plist></plist> and some more bytes".utf8))
        }
    }
}
