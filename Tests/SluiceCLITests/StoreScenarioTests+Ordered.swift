import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// The scenarios of ordered to-many relationships (`docs/model.md`, ordered relationships), through the binary
/// with input on stdin, on SQLite and PostgreSQL: the position column beside the links, a
/// re-import that writes nothing, a reordered list under `merge: replace`, links appended
/// under `merge: add`, forward references placed in the second pass, and an existing database
/// whose tables gain the column.
extension StoreScenarioTests {
    static let orderedCoreDataModel = PackageFiles.path("Tests/Fixtures/Ordered/Music.xcdatamodeld")

    static let orderedSongs = #"SELECT p."playlistID", s."songID", j."position" FROM "Playlist_songs" j JOIN "Playlist" p ON p."pk" = j."source_pk" JOIN "Song" s ON s."pk" = j."target_pk" ORDER BY 1, 3"#
    static let orderedTracks = #"SELECT a."albumID", t."trackID", t."album_position" FROM "Track" t JOIN "Album" a ON a."pk" = t."album_pk" ORDER BY 1, 3"#

    /// Core Data's `ordered="YES"`, with MagicalRecord's `merge: add`: the first list gives
    /// places 0, 1, 2 (the null is no element), ids that come later are placed in the second
    /// pass, and a later list appends its new links after the largest place while the links
    /// already there keep theirs.
    @Test(arguments: stores)
    func aCoreDataModelsOrderedToManysKeepTheInputOrder(_ store: StoreKind) throws {
        let workspace = Workspace()
        let db = try store.makeDatabase(in: workspace)
        // s3 and s2 are named by p1 before p2 creates them: with one record a batch they wait.
        let playlists = """
            {"playlistID": "p1", "songs": ["s3", {"songID": "s1"}, null, "s2", "s3"]}
            {"playlistID": "p2", "songs": [{"songID": "s2"}, {"songID": "s3"}]}

            """
        let first = try db.sluiceImport("--model", Self.orderedCoreDataModel, "--entity", "Playlist", "--batch-size", "1",
                                        stdin: Array(playlists.utf8))
        #expect(first.status == 0, "\(first)")
        #expect(try db.rows(Self.orderedSongs) == ["p1|s3|0", "p1|s1|1", "p1|s2|2", "p2|s2|0", "p2|s3|1"])
        let albums = #"{"albumID": "a1", "tracks": [{"trackID": "t2"}, {"trackID": "t1"}]}"#
        let nested = try db.sluiceImport("--model", Self.orderedCoreDataModel, "--entity", "Album", stdin: Array(albums.utf8))
        #expect(nested.entityLines.last == "total: inserted 3, updated 0, unchanged 0, rejected 0, links 2, unresolved 0", "\(nested)")
        #expect(try db.rows(Self.orderedTracks) == ["a1|t2|0", "a1|t1|1"])

        // The same input again writes nothing.
        for (entity, input) in [("Playlist", playlists), ("Album", albums)] {
            let again = try db.sluiceImport("--model", Self.orderedCoreDataModel, "--entity", entity, stdin: Array(input.utf8))
            #expect(again.status == 0, "\(again)")
            #expect(again.entityLines.last?.hasSuffix("updated 0, unchanged \(entity == "Album" ? 3 : 5), rejected 0, links 0, unresolved 0") == true,
                    "\(entity): \(again)")
        }

        // merge: add appends: s4 goes after p1's largest place, s1 keeps its own.
        let more = try db.sluiceImport("--model", Self.orderedCoreDataModel, "--entity", "Playlist",
                                       stdin: Array(#"{"playlistID": "p1", "songs": [{"songID": "s4"}, "s1"]}"#.utf8))
        #expect(more.status == 0, "\(more)")
        #expect(try db.rows(Self.orderedSongs) == ["p1|s3|0", "p1|s1|1", "p1|s2|2", "p1|s4|3", "p2|s2|0", "p2|s3|1"])
        let moreTracks = try db.sluiceImport("--model", Self.orderedCoreDataModel, "--entity", "Album",
                                             stdin: Array(#"{"albumID": "a1", "tracks": [{"trackID": "t3"}, "t2"]}"#.utf8))
        #expect(moreTracks.entityLines.last == "total: inserted 1, updated 0, unchanged 1, rejected 0, links 1, unresolved 0", "\(moreTracks)")
        #expect(try db.rows(Self.orderedTracks) == ["a1|t2|0", "a1|t1|1", "a1|t3|2"])
    }

    /// `check` has nothing to note, and `convert-model` writes `ordered` (and the deletion
    /// rule), which gives the same tables.
    @Test func convertModelWritesOrdered() throws {
        let workspace = Workspace()
        let check = try workspace.sluice("check", "--model", Self.orderedCoreDataModel)
        #expect(check.status == 0 && !check.stderr.contains("note:"), "\(check)")
        let converted = try workspace.sluice("convert-model", Self.orderedCoreDataModel)
        #expect(converted.status == 0, "\(converted)")
        #expect(converted.stdout.contains(#""tracks": { "entity": "Track", "toMany": true, "inverse": "album", "ordered": true, "deleteRule": "cascade" }"#),
                "\(converted.stdout)")
        try workspace.write(converted.stdout, to: "converted.json")
        let fromJSON = try workspace.sluice("schema", "--model", "converted.json")
        let fromCoreData = try workspace.sluice("schema", "--model", Self.orderedCoreDataModel)
        #expect(fromJSON.stdout == fromCoreData.stdout)
        #expect(fromCoreData.stdout.contains(#""album_position" INTEGER"#) && fromCoreData.stdout.contains(#""position" INTEGER"#),
                "\(fromCoreData.stdout)")
    }

    static let orderedModel = """
        {"root": {"albums": "Album", "tracks": "Track", "tags": "Tag"}, "entities": {
          "Album": {"identity": "albumID", "attributes": {"albumID": {"type": "string", "key": "id"}},
            "relationships": {
              "tracks": {"entity": "Track", "toMany": true, "inverse": "album", "ordered": true, "merge": "replace"},
              "tags": {"entity": "Tag", "toMany": true, "ordered": true, "merge": "replace"}}},
          "Track": {"identity": "trackID", "attributes": {"trackID": {"type": "string", "key": "id"}},
            "relationships": {"album": {"entity": "Album"}}},
          "Tag": {"identity": "tagID", "attributes": {"tagID": {"type": "string", "key": "id"}}}}}
        """
    static let orderedTags = #"SELECT a."albumID", t."tagID", j."position" FROM "Album_tags" j JOIN "Album" a ON a."pk" = j."source_pk" JOIN "Tag" t ON t."pk" = j."target_pk" ORDER BY 1, 3"#

    /// `merge: replace`: every link takes its index in the list. Every target comes after the
    /// album, so all of them are placed in the second pass; a reordered list, whose targets
    /// are known by then, moves what moved and unlinks what is gone.
    @Test(arguments: stores)
    func replaceFollowsTheListThroughTheSecondPassAndAReorder(_ store: StoreKind) throws {
        let workspace = Workspace()
        try workspace.write(Self.orderedModel, to: "model.json")
        let db = try store.makeDatabase(in: workspace)
        let input = """
            {"albums": [{"id": "a1", "tracks": ["t2", "t1", "t3"], "tags": ["rock", "live"]}],
             "tracks": [{"id": "t1"}, {"id": "t2"}, {"id": "t3"}], "tags": [{"id": "live"}, {"id": "rock"}]}
            """
        let first = try db.sluiceImport("--model", "model.json", stdin: Array(input.utf8))
        #expect(first.entityLines.last == "total: inserted 6, updated 0, unchanged 0, rejected 0, links 5, unresolved 0", "\(first)")
        #expect(try db.rows(Self.orderedTracks) == ["a1|t2|0", "a1|t1|1", "a1|t3|2"])
        #expect(try db.rows(Self.orderedTags) == ["a1|rock|0", "a1|live|1"])

        let again = try db.sluiceImport("--model", "model.json", stdin: Array(input.utf8))
        #expect(again.entityLines.last == "total: inserted 0, updated 0, unchanged 6, rejected 0, links 0, unresolved 0", "\(again)")

        // t1 and t2 swap, t3 is no longer listed; the tags swap.
        let reordered = #"{"albums": [{"id": "a1", "tracks": ["t1", "t2"], "tags": ["live", "rock"]}]}"#
        let third = try db.sluiceImport("--model", "model.json", stdin: Array(reordered.utf8))
        #expect(third.entityLines.last == "total: inserted 0, updated 0, unchanged 1, rejected 0, links 5, unresolved 0", "\(third)")
        #expect(try db.rows(Self.orderedTracks) == ["a1|t1|0", "a1|t2|1"])
        #expect(try db.rows(#"SELECT "trackID", "album_pk", "album_position" FROM "Track" WHERE "trackID" = 't3'"#) == ["t3||"])
        #expect(try db.rows(Self.orderedTags) == ["a1|live|0", "a1|rock|1"])

        // --delete-missing deletes the album: its tracks lose the link and its places.
        let others = #"{"albums": [{"id": "a2"}], "tracks": [{"id": "t1"}, {"id": "t2"}, {"id": "t3"}], "tags": [{"id": "live"}, {"id": "rock"}]}"#
        let deleted = try db.sluiceImport("--model", "model.json", "--delete-missing", stdin: Array(others.utf8))
        #expect(deleted.status == 0, "\(deleted)")
        #expect(try db.rows(#"SELECT "trackID", "album_pk", "album_position" FROM "Track" ORDER BY 1"#) == ["t1||", "t2||", "t3||"])
        #expect(try db.count("Album_tags") == 0)
    }

    /// A database written before the relationships were ordered: its join table and the
    /// target's table gain the position column (NULL for the links already there), and the
    /// next import places every link it lists.
    @Test(arguments: stores)
    func anExistingDatabaseGainsThePositionColumns(_ store: StoreKind) throws {
        let workspace = Workspace()
        try workspace.write(Self.orderedModel.replacing(#", "ordered": true"#, with: ""), to: "unordered.json")
        try workspace.write(Self.orderedModel, to: "model.json")
        let db = try store.makeDatabase(in: workspace)
        let input = """
            {"tracks": [{"id": "t1"}, {"id": "t2"}], "tags": [{"id": "live"}, {"id": "rock"}],
             "albums": [{"id": "a1", "tracks": ["t2", "t1"], "tags": ["rock", "live"]}]}
            """
        let before = try db.sluiceImport("--model", "unordered.json", stdin: Array(input.utf8))
        #expect(before.status == 0, "\(before)")
        #expect(try db.rows(#"SELECT count(*) FROM "Album_tags""#) == ["2"])

        let after = try db.sluiceImport("--model", "model.json", stdin: Array(input.utf8))
        #expect(after.entityLines.last == "total: inserted 0, updated 0, unchanged 5, rejected 0, links 4, unresolved 0", "\(after)")
        #expect(try db.rows(Self.orderedTracks) == ["a1|t2|0", "a1|t1|1"])
        #expect(try db.rows(Self.orderedTags) == ["a1|rock|0", "a1|live|1"])
    }
}

extension StoreScenarioTests {
    /// The property tests' finding 7: under `merge: add`, a later list of a row goes after the
    /// places its earlier lists gave, ids still waiting for the second pass included. With one
    /// record a batch, p1's second list took place 1, which its waiting `s9` already had, and
    /// the order of the two was left to chance once `s9` came.
    @Test(arguments: stores)
    func anAddListGoesAfterTheLinksStillWaiting(_ store: StoreKind) throws {
        let playlists = """
            {"playlistID": "p1", "songs": [{"songID": "s1"}, "s9"]}
            {"playlistID": "p1", "songs": [{"songID": "s2"}]}
            {"playlistID": "p2", "songs": [{"songID": "s9"}]}

            """
        for batchSize in ["1", "5000"] {
            let db = try store.makeDatabase(in: Workspace())
            let result = try db.sluiceImport("--model", Self.orderedCoreDataModel, "--entity", "Playlist", "--batch-size", batchSize,
                                             stdin: Array(playlists.utf8))
            #expect(result.status == 0, "\(result)")
            #expect(try db.rows(Self.orderedSongs) == ["p1|s1|0", "p1|s9|1", "p1|s2|2", "p2|s9|0"], "batch size \(batchSize)")
        }
    }
}
