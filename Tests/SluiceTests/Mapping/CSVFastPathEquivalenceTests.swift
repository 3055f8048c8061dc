import Foundation
import SluiceTestSupport
import Testing
@_spi(Fuzzing) @testable import Sluice

/// CSV rows take the record assembler's common cases too (`FastPaths`): each column's name is
/// matched once per header (`ColumnKeys`), and a value that is also a bare id of a relationship
/// whose `relatedBy` is a string is set without the general path. Mapped and imported both
/// ways, CSV inputs give the same records, positions, rejections and rows.
@Suite struct CSVFastPathEquivalenceTests {
    /// Links by a string id (the fast path), by an integer id (the general path), a to-many by
    /// a bare id, a key with a fallback, an unmapped column.
    static let model = #"""
        {"entities": {
          "StopTime": {"identity": ["trip_id", "seq"],
                       "attributes": {"trip_id": "string", "stop_id": "string", "seq": "integer", "dist": "double",
                                      "note": {"type": "string", "key": ["note", "alt"]}, "route_id": "string"},
                       "relationships": {"trip": {"entity": "Trip", "key": "trip_id"},
                                         "stop": {"entity": "Stop", "key": "stop_id"},
                                         "route": {"entity": "Route", "key": "route_id"},
                                         "tags": {"entity": "Tag", "key": "tag", "toMany": true}}},
          "Trip": {"identity": "id", "attributes": {"id": "string"}},
          "Stop": {"identity": "id", "attributes": {"id": "string"}},
          "Route": {"identity": "id", "attributes": {"id": "integer"}},
          "Tag": {"identity": "id", "attributes": {"id": "string"}}
        }}
        """#

    /// Quoted fields (separators, line breaks and doubled quotes inside), ragged rows (fewer
    /// and more fields than the header), empty fields (missing), empty lines, CRLF, unnamed
    /// columns (a name given twice is an input error, `CSVImportTests`; an empty one may repeat),
    /// a BOM, invalid UTF-8, values that do not convert.
    static let inputs: [[UInt8]] = [
        Array("""
            trip_id,stop_id,seq,dist,note,alt,route_id,tag,extra
            t1,s1,1,0.5,n,,7,a,x
            t1,s2,2,,,fallback,x7,,
            "t,2","s\n3",3,1e400,"a""b",z,,"b"
            t3,s4

            t4,s5,4,1,2,3,4,5,6,7
            t6,,abc\r\n\r\nt7,s7,7,,,,,,\r
            t8,s8,8,2.5,"",alt only,12,c,
            """.utf8) + Array("t9,s\u{e9},9\nt9,s".utf8) + [0xC3, 0x28] + Array(",10\nt10,s10,10".utf8),
        [0xEF, 0xBB, 0xBF] + Array("trip_id,stop_id,seq\nt1,s1,1\nt2,s2,2\n".utf8),
        Array("stop_id,,trip_id,seq,\ns1,x,t1,1,t1b\ns2,,,2,t2\ns3,y,t3,3\n".utf8),
        Array("unmapped,seq,trip_id\nu,1,t1\n,2,t2\nu,3,\n".utf8),
    ]

    static func outcomes(_ inputs: [[UInt8]], chunkSize: Int, captures: Bool) throws -> (Fuzzing.Outcome, Fuzzing.Outcome) {
        let model = try Model.parse(Array(model.utf8), sourceName: "model.json")
        func map(_ fastPaths: Bool) throws -> Fuzzing.Outcome {
            switch inputs.count {
            case 1:
                try Fuzzing.mapCSV(inputs[0], model: model, entity: "StopTime", chunkSize: chunkSize,
                                   capturesRejectedRecords: captures, fastPaths: fastPaths)
            default:
                try Fuzzing.mapCSV(inputs[0], inputs[1], model: model, entity: "StopTime", chunkSize: chunkSize,
                                   capturesRejectedRecords: captures, fastPaths: fastPaths)
            }
        }
        return (try map(true), try map(false))
    }

    @Test(arguments: inputs.indices)
    func recordsPositionsAndRejectionsAreTheSameBothWays(_ index: Int) throws {
        for chunkSize in [1 << 20, 1, 7] {
            for captures in [false, true] {
                let (fast, general) = try Self.outcomes([Self.inputs[index]], chunkSize: chunkSize, captures: captures)
                #expect(fast == general, "chunks of \(chunkSize), captures \(captures)")
                #expect(fast.lines.contains { $0.hasPrefix("record ") })
            }
        }
    }

    /// One stream reads two inputs whose headers put the same names in other columns: the
    /// second header's columns are matched again, not taken as the first one's.
    @Test func aNewHeaderIsMatchedAgain() throws {
        let first = Array("trip_id,stop_id,seq\nt1,s1,1\n".utf8)
        let second = Array("seq,stop_id,trip_id\n2,s2,t2\n".utf8)
        let (fast, general) = try Self.outcomes([first, second], chunkSize: 1 << 20, captures: false)
        #expect(fast == general)
        let records = fast.lines.filter { $0.hasPrefix("record ") }
        #expect(records.count == 2)
        #expect(records.last?.contains(#""t2", "s2", 2, "#) == true, "\(records)")
    }

    /// Imported both ways (`--on-error skip`), every table holds the same rows.
    @Test(arguments: inputs.indices)
    func rowsAreTheSameBothWays(_ index: Int) throws {
        let model = try Model.parse(Array(Self.model.utf8), sourceName: "model.json")
        let dumps = try FastPathEquivalenceTests.importedBothWays(Self.inputs[index], name: "in.csv", model: model, entity: "StopTime")
        #expect(dumps[0] == dumps[1])
        #expect(dumps[0].values.contains { !$0.isEmpty })
    }
}
