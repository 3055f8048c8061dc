import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Values against the real stores Core Data wrote (`Tests/Fixtures/CoreDataStores`): the
/// objects of a store, exported as an app would (dates as Unix seconds or ISO 8601 with the
/// digits that give the stored double back), written by `sluice` hold exactly what Core Data
/// stored; imported into a copy of their own store, they change no row and no `Z_OPT`.
@Suite struct CoreDataFixtureValuesTests {
    static let fixtures = "Tests/Fixtures/CoreDataStores/"
    static let coreDataPlus = fixtures + "coredataplus/6739d000/Tests/"
    static let cartKitModel = fixtures + "cartkit/reconstructed/CartStorage_v1.xcdatamodel"
    static let cartKitStore = fixtures + "cartkit/4eee788d/Tests/CartKitStorageCoreDataTests/LegacyCoreData/CartStorage_v1.sqlite"

    /// A positive Core Data date (seconds since 2001) as Unix seconds, in the shortest
    /// decimal that reads back as the same double, plus 978307200 added to its digits.
    private func unixSeconds(_ stored: Double) -> String {
        let parts = "\(stored)".split(separator: ".")
        return "\(Int64(parts[0])! + 978_307_200)" + (parts.count > 1 && parts[1] != "0" ? ".\(parts[1])" : "")
    }

    private func json(_ value: ColumnValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let number): "\(number)"
        case .text(let text): JSONEscaping.quotedString(text)
        default: "\(value)"
        }
    }

    /// CoreDataPlus's people (six-digit dates, framework 865), cars and limited-edition
    /// flags, imported into a copy of their own store: nothing is written.
    @Test func aStoresOwnObjectsChangeNothingInACopyOfIt() throws {
        let workspace = Workspace()
        try workspace.copyStore(Self.coreDataPlus + "SampleModelV2.sqlite", to: "Copy.sqlite")
        // Each read opens the store and closes it again: an import waits for no reader.
        func tables() throws -> [[[ColumnValue]]] {
            let store = try workspace.database("Copy.sqlite")
            return try ["ZPERSON", "ZCAR", "ZMAKER", "Z_1PREVIOUSOWNERS", "Z_PRIMARYKEY"].map { try store.rows("SELECT * FROM \($0) ORDER BY 1, 2") }
        }
        let before = try tables()
        let (people, cars) = try export(workspace.database("Copy.sqlite"))
        // Each car under its own entity's key: Car, SportCar, LuxuryCar.
        let input = #"{"people": [\#(people.joined(separator: ", "))], "#
            + (1...3).map { (entity: Int64) in #""cars\#(entity)": [\#(cars[entity, default: []].joined(separator: ", "))]"# }.joined(separator: ", ") + "}"
        let result = try workspace.sluice(["import", "--db", "Copy.sqlite", "--layout", "coredata",
                                           "--model", PackageFiles.path(Self.coreDataPlus + "SampleModel.xcdatamodeld/SampleModel3.xcdatamodel"),
                                           "--root", "people=Person", "--root", "cars1=Car", "--root", "cars2=SportCar",
                                           "--root", "cars3=LuxuryCar", "-"], stdin: Array(input.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(result.entityLines.last?.hasPrefix("total: inserted 0, updated 0, unchanged 145,") == true, "\(result.entityLines)")
        #expect(try tables() == before)
    }

    /// The people of CoreDataPlus's store as JSON objects, and its cars by `Z_ENT`.
    private func export(_ store: TestDatabase) throws -> (people: [String], cars: [Int64: [String]]) {
        let people = try store.rows("SELECT ZFIRSTNAME, ZLASTNAME, ZUPDATEDAT FROM ZPERSON").map { row in
            guard case .real(let updated) = row[2] else { return "" }
            return #"{"firstName": \#(json(row[0])), "lastName": \#(json(row[1])), "updatedAt": \#(unixSeconds(updated))}"#
        }
        var cars: [Int64: [String]] = [:]
        for row in try store.rows("SELECT ZNUMBERPLATE, ZMODEL, Z_ENT, ZISLIMITEDEDITION FROM ZCAR") {
            let flag = row[2] == .integer(3) ? #", "isLimitedEdition": \#(row[3] == .integer(1) ? "true" : row[3] == .null ? "null" : "false")"# : ""
            cars[row[2].integer ?? 0, default: []].append(#"{"numberPlate": \#(json(row[0])), "model": \#(json(row[1]))\#(flag)}"#)
        }
        #expect(people.count == 20 && !people.contains(""))
        #expect(try store.scalar("SELECT count(DISTINCT ZUPDATEDAT) FROM ZPERSON") == .integer(20))
        return (people, cars)
    }

    /// CartKit's cart and item (framework 1523) written into a new store: a date of six
    /// digits, decimals as integers, binary bytes, a URL string, Integer 32s, text: each
    /// column holds what Core Data wrote, with its SQLite type.
    @Test func aNewStoreHoldsWhatCoreDataWrote() throws {
        let workspace = Workspace()
        try workspace.copyStore(Self.cartKitStore, to: "Real.sqlite")
        let input = """
            {"carts": [{"id": "DB59838B-4108-4EB2-89D0-31B6D7EB6CDA", "context": "legacy", "displayName": "Legacy Cart",
                        "maxItemCount": 0, "createdAt": "2026-01-30T13:59:31.290433Z", "updatedAt": 1769781571.290433,
                        "minSubtotalAmount": null, "profileId": "profile-legacy", "status": "active", "storeId": "store-legacy",
                        "storeImageURL": "https://example.com/store.png", "metadataJSON": "eyJzb3VyY2UiOiJsZWdhY3ktZml4dHVyZSJ9"}],
             "items": [{"id": "FEAA2483-308A-4FFC-84F0-67CECDE471D0", "availableStock": 5, "quantity": 2, "totalPriceAmount": 10,
                        "unitPriceAmount": "5.0", "productId": "burger", "totalPriceCurrencyCode": "USD", "unitPriceCurrencyCode": "USD"}]}
            """
        let result = try workspace.sluice(["import", "--db", "New.sqlite", "--layout", "coredata", "--model", PackageFiles.path(Self.cartKitModel),
                                           "--root", "carts=CDCart", "--root", "items=CDCartItem", "-"], stdin: Array(input.utf8))
        #expect(result.status == 0, "\(result)")
        let real = try workspace.database("Real.sqlite"), new = try workspace.database("New.sqlite")
        for table in ["ZCDCART", "ZCDCARTITEM"] {
            let columns = try real.rows("SELECT name FROM pragma_table_info('\(table)') WHERE name NOT IN ('Z_PK', 'Z_ENT', 'ZCART')")
                .compactMap(\.first?.text)
            let select = "SELECT " + columns.map { "\($0), typeof(\($0))" }.joined(separator: ", ") + " FROM \(table)"
            #expect(try new.rows(select) == real.rows(select), "\(table)")
        }
        #expect(try new.rows("SELECT ZUPDATEDAT FROM ZCDCART") == [[.real(791_474_371.290433)]])
    }

    /// The types no fixture store has a column of, as the format's notes give them
    /// (`coredata-store-format.md`): UUID the 16 bytes, URI its absolute string, Integer 64
    /// beyond 2^53 exactly, Double every digit (the nearest double of the text, and a stored
    /// REAL's 17 digits back to the same double), Decimal a REAL when not whole, Boolean 0/1;
    /// a re-import writes nothing.
    @Test func otherTypesAsTheFormatStoresThem() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(entities: """
            <entity name="Thing" representedClassName="Thing">
                <attribute name="code" attributeType="Integer 64"/>
                <attribute name="uuid" optional="YES" attributeType="UUID"/>
                <attribute name="link" optional="YES" attributeType="URI"/>
                <attribute name="ratio" optional="YES" attributeType="Double"/>
                <attribute name="price" optional="YES" attributeType="Decimal"/>
                <attribute name="flag" optional="YES" attributeType="Boolean"/>
                <userInfo><entry key="relatedByAttribute" value="code"/></userInfo>
            </entity>
            """, to: "Things.xcdatamodel")
        let input = """
            [{"code": 9007199254740993, "uuid": "6F9619FF-8B86-D011-B42D-00CF4FC964FF", "link": "https://example.com/a%20b?q=1",
              "ratio": 0.30000000000000004, "price": "3.3333333333", "flag": "yes"},
             {"code": -9223372036854775808, "ratio": 791474371.29043305, "price": 12345678901234567, "flag": 0}]
            """
        let arguments = ["import", "--db", "Things.sqlite", "--layout", "coredata", "--model", "Things.xcdatamodel", "--entity", "Thing", "-"]
        let first = try workspace.sluice(arguments, stdin: Array(input.utf8))
        #expect(first.status == 0, "\(first)")
        let select = "SELECT ZCODE, hex(ZUUID), ZLINK, ZRATIO, ZPRICE, typeof(ZPRICE), ZFLAG, Z_OPT FROM ZTHING ORDER BY Z_PK"
        let expected: [[ColumnValue]] = [
            [.integer(9_007_199_254_740_993), .text("6F9619FF8B86D011B42D00CF4FC964FF"), .text("https://example.com/a%20b?q=1"),
             .real(0.30000000000000004), .real(3.3333333333), .text("real"), .integer(1), .integer(1)],
            [.integer(Int64.min), .text(""), .null, .real(791_474_371.29043305), .integer(12_345_678_901_234_567), .text("integer"),
             .integer(0), .integer(1)],
        ]
        #expect(try workspace.database("Things.sqlite").rows(select) == expected)
        let again = try workspace.sluice(arguments, stdin: Array(input.utf8))
        #expect(again.status == 0, "\(again)")
        #expect(again.entityLines == ["Thing: inserted 0, updated 0, unchanged 2, rejected 0"])
        #expect(try workspace.database("Things.sqlite").rows(select) == expected)
    }
}
