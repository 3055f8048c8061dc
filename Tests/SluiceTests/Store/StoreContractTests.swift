import Testing
import SluiceTestSupport
@testable import Sluice

extension StoreTests {
    /// What every store must do behind the engine's seam (`ImportStore`, `EntityRowStore`,
    /// `LinkStore`, `PendingLinkStore`, `TouchedRowStore`), driven directly and checked by the
    /// rows each leaves, the same cases for each store (`ContractStore`): find-or-create and
    /// updates, links of every storage, waiting links and the second pass, the `unresolved`
    /// policies, `--delete-missing`, and nothing written when nothing changes.
    @Suite struct StoreContractTests {
        @Test(arguments: ContractStore.allCases)
        func rowsAreFoundByIdentityInsertedAndUpdated(_ kind: ContractStore) throws {
            let db = try ContractDatabase(kind)
            let pks = try db.insert("people", ["ann", "bob"])
            #expect(Set(pks.values).count == 2)
            // A later batch: ann is found by her identity, cy is not; ann's name changes.
            try db.withRows("people", [[.text("ann"), .text("Ann")], [.text("cy")]]) { writer, rows in
                var existing = ExistingRows(width: rows.width, attributeCount: 2)
                existing.reset(count: 2)
                try writer.find([0, 1], of: rows, into: &existing)
                let (ann, cy) = (existing.pk(of: 0), existing.pk(of: 1))
                #expect(ann == pks["ann"])
                #expect(cy == nil)
                var name = ColumnSet(width: rows.width)
                name.insert(1)
                try writer.update([RowChange(row: 0, columns: name, pk: pks["ann"]!)], of: rows)
            }
            #expect(try db.rows(#"SELECT "pk", "id", "name" FROM "people" ORDER BY "id""#)
                == ["\(pks["ann"]!)|ann|Ann", "\(pks["bob"]!)|bob|"])
        }

        /// SQLite builds the indexes left for after the load with a second sorting thread and
        /// small page caches, and the connection's settings are back after them.
        @Test(arguments: [ContractStore.sqlite, .sqliteZPK])
        func indexesAfterTheLoadSortOnASecondThread(_ kind: ContractStore) throws {
            let db = try ContractDatabase(kind)
            func settings() throws -> [String] {
                try db.rows("PRAGMA cache_size") + db.rows("PRAGMA threads")
            }
            let before = try settings()
            try db.indexes.willFill(table: "people", column: "employer_pk")
            var during: [[String]] = []
            try db.indexes.createAll { _ in during.append((try? settings()) ?? []) }
            #expect(!during.isEmpty && during.allSatisfy { $0 == ["-512", "1"] })
            #expect(before == ["-7168", "0"])
            #expect(try settings() == before)
            #expect(try db.indexNames(of: "people").contains("people_employer_pk"))
        }

        /// A new table's to-one index, which leaves out NULL, is made with the table and kept
        /// until a batch's links fill its column; then it is dropped and built after the load.
        @Test(arguments: ContractStore.allCases)
        func aToOnesIndexIsMadeWithItsNewTableUntilItsColumnIsFilled(_ kind: ContractStore) throws {
            let db = try ContractDatabase(kind)
            #expect(db.indexes.early.map(\.name).sorted() == ["people_employer_pk", "pets_owner_pk"])
            #expect(try db.indexNames(of: "people").contains("people_employer_pk"))
            let people = try db.insert("people", ["ann"])
            let companies = try db.insert("companies", ["acme"])
            try db.indexes.willFill(table: "people", column: "employer_pk")
            #expect(db.indexes.early.map(\.name) == ["pets_owner_pk"])
            #expect(try !db.indexNames(of: "people").contains("people_employer_pk"))
            _ = try db.store.links.link(db.plan("Person.employer"), [LinkPair(source: people["ann"]!, target: companies["acme"]!)])
            try db.indexes.createAll()
            #expect(try db.indexNames(of: "people").contains("people_employer_pk"))
            #expect(try db.indexNames(of: "pets").contains("pets_owner_pk"))
            #expect(try db.rows(#"SELECT count(*) FROM "people" WHERE "employer_pk" IS NOT NULL"#) == ["1"])
        }

        /// A new table's unique identity index is made with it; deferred while the table is
        /// empty, it is gone until a lookup needs it (`ensure`) or the load ends (`createAll`),
        /// and is the same unique index then. The store says which tables the import created.
        @Test(arguments: ContractStore.allCases)
        func aNewTablesIdentityIndexMayWaitForALookupOrTheEndOfTheLoad(_ kind: ContractStore) throws {
            let db = try ContractDatabase(kind)
            let identity = try #require(db.indexes.identities.first { $0.table == "people" })
            #expect(Set(db.indexes.identities.map(\.table)).isSuperset(of: ["companies", "people", "pets"]))
            #expect(try db.withRows("people", []) { writer, _ in writer.startedEmpty })
            #expect(try db.indexNames(of: "people").contains(identity.name))
            #expect(try db.indexes.deferIdentity(of: "people") == identity.columns)
            #expect(try db.indexes.deferIdentity(of: "people") == nil)
            #expect(try !db.indexNames(of: "people").contains(identity.name))
            #expect(try db.indexes.deferIdentity(of: "pets") == identity.columns)
            try db.insert("people", ["ann", "bob"])
            try db.insert("pets", ["rex"])
            // A lookup builds the people's; the pets' waits for the end of the load.
            try db.indexes.ensure(table: "people", columns: identity.columns)
            #expect(try db.indexNames(of: "people").contains(identity.name))
            #expect(try !db.indexNames(of: "pets").contains("pets_identity"))
            try db.withRows("people", [[.text("bob")], [.text("cy")]]) { writer, rows in
                var existing = ExistingRows(width: rows.width, attributeCount: 2)
                existing.reset(count: 2)
                try writer.find([0, 1], of: rows, into: &existing)
                #expect(existing.pk(of: 0) != nil)
                #expect(existing.pk(of: 1) == nil)
            }
            try db.indexes.createAll()
            #expect(try db.indexNames(of: "pets").contains("pets_identity"))
            let definition = switch kind {
            case .sqlite, .sqliteZPK: #"SELECT "sql" FROM sqlite_schema WHERE "name" = 'pets_identity'"#
            case .postgres: #"SELECT "indexdef" FROM pg_indexes WHERE "indexname" = 'pets_identity'"#
            }
            #expect(try db.rows(definition).first?.contains("UNIQUE INDEX") == true)
        }

        /// An early index (over a new table's to-one column, made with the table) that the
        /// writer keeps while its rows fill the column in order stays made until `willFill`
        /// says they no longer do; then it is dropped and built after the load as it was.
        /// PostgreSQL keeps none so (`SQLDialect.keepsIndexesInOrder`): the first batch that
        /// fills the column drops it.
        @Test(arguments: ContractStore.allCases)
        func anEarlyIndexKeptInOrderStaysUntilItsColumnIsFilledOutOfOrder(_ kind: ContractStore) throws {
            let db = try ContractDatabase(kind)
            let early = try #require(db.indexes.early.first { $0.table == "people" })
            let column = try #require(early.columns.first)
            if kind == .postgres {
                #expect(!db.indexes.keepWhileInOrder(table: "people", column: column))
                #expect(!db.indexes.isKeptInOrder(table: "people", column: column))
                #expect(db.indexes.isEarly(table: "people", column: column))
                try db.indexes.willFill(table: "people", column: column)
                #expect(try !db.indexNames(of: "people").contains(early.name))
                try db.indexes.createAll()
                #expect(try db.indexNames(of: "people").contains(early.name))
                return
            }
            #expect(db.indexes.keepWhileInOrder(table: "people", column: column))
            #expect(!db.indexes.keepWhileInOrder(table: "people", column: column))
            #expect(db.indexes.isKeptInOrder(table: "people", column: column))
            #expect(db.indexes.isEarly(table: "people", column: column))
            #expect(try db.indexNames(of: "people").contains(early.name))
            try db.indexes.willFill(table: "people", column: column)
            #expect(!db.indexes.isEarly(table: "people", column: column))
            #expect(try !db.indexNames(of: "people").contains(early.name))
            try db.indexes.createAll()
            #expect(try db.indexNames(of: "people").contains(early.name))
        }

        @Test(arguments: ContractStore.allCases)
        func linksOfEveryStorageAreMadeOnceAndAgainWriteNothing(_ kind: ContractStore) throws {
            let db = try ContractDatabase(kind)
            let people = try db.insert("people", ["ann", "bob", "cy"])
            let companies = try db.insert("companies", ["acme"])
            let pets = try db.insert("pets", ["rex", "tom"])
            let links = db.store.links
            let found = try links.pks(of: [.text("acme"), .text("nope")], in: "companies", column: "id")
            #expect(found.count == 1 && found[.text("acme")] == companies["acme"]!)
            // The rows after one, in pk order, at most `limit`.
            let inOrder = try links.ids(after: nil, limit: 2, in: "people", column: "id")
            #expect(inOrder.map(\.id) == [.text("ann"), .text("bob")] && inOrder.map(\.pk) == [people["ann"]!, people["bob"]!])
            let following = try links.ids(after: people["ann"]!, limit: 5, in: "people", column: "id")
            #expect(following.map(\.id) == [.text("bob"), .text("cy")] && following.map(\.pk) == [people["bob"]!, people["cy"]!])
            #expect(try links.ids(after: people["cy"]!, limit: 5, in: "people", column: "id").isEmpty)
            #expect(try links.hasRows("companies"))
            #expect(try !links.hasRows("songs"))

            let employer = [LinkPair(source: people["ann"]!, target: companies["acme"]!)]
            let owned = [LinkPair(source: people["ann"]!, target: pets["rex"]!), LinkPair(source: people["bob"]!, target: pets["tom"]!)]
            let friends = [LinkPair(source: people["ann"]!, target: people["bob"]!), LinkPair(source: people["ann"]!, target: people["cy"]!)]
            #expect(try links.link(db.plan("Person.employer"), employer) == 1)
            #expect(try links.link(db.plan("Person.pets"), owned) == 2)
            #expect(try links.link(db.plan("Person.friends"), friends) == 2)
            // A re-import names the same links: nothing is written.
            #expect(try links.link(db.plan("Person.employer"), employer) == 0)
            #expect(try links.link(db.plan("Person.pets"), owned) == 0)
            #expect(try links.link(db.plan("Person.friends"), friends) == 0)
            #expect(try db.rows(#"SELECT p."id", c."id" FROM "people" p JOIN "companies" c ON c."pk" = p."employer_pk""#) == ["ann|acme"])
            #expect(try db.rows(#"SELECT x."id", o."id" FROM "pets" x JOIN "people" o ON o."pk" = x."owner_pk" ORDER BY 1"#)
                == ["rex|ann", "tom|bob"])

            // `merge: replace` given [bob]: cy is unlinked, once.
            let keeping = [friends[0]]
            #expect(try links.unlinkOthers(db.plan("Person.friends"), sources: [people["ann"]!], keeping: keeping) == 1)
            #expect(try links.unlinkOthers(db.plan("Person.friends"), sources: [people["ann"]!], keeping: keeping) == 0)
            #expect(try db.rows(#"SELECT a."id", b."id" FROM "people_friends" f JOIN "people" a ON a."pk" = f."source_pk" JOIN "people" b ON b."pk" = f."target_pk""#)
                == ["ann|bob"])
            // A to-many stored by its inverse: ann keeps no pet, rex's owner is cleared.
            #expect(try links.unlinkOthers(db.plan("Person.pets"), sources: [people["ann"]!], keeping: []) == 1)
            #expect(try db.rows(#"SELECT "id", "owner_pk" FROM "pets" ORDER BY 1"#) == ["rex|", "tom|\(people["bob"]!)"])
            // A to-one emptied (a later record's link waits for an id).
            try links.clear(db.plan("Person.employer"), sources: [people["ann"]!, people["bob"]!])
            #expect(try db.rows(#"SELECT count(*) FROM "people" WHERE "employer_pk" IS NOT NULL"#) == ["0"])
        }

        @Test(arguments: ContractStore.allCases)
        func anOrderedToManyKeepsItsPlacesAndMovesOnlyWhatMoved(_ kind: ContractStore) throws {
            let db = try ContractDatabase(kind)
            let ann = try db.insert("people", ["ann"])["ann"]!
            let songs = try db.insert("songs", ["s1", "s2", "s3"])
            let plan = db.plan("Person.playlist")
            let place = plan.positionColumn!
            let links = db.store.links
            func placed(_ ids: [String], counts: Bool = true) -> [PlacedLink] {
                ids.enumerated().map { PlacedLink(source: ann, target: songs[$1]!, place: Int64($0), countsMove: counts) }
            }
            let listed = """
                SELECT s."id", j."\(place)" FROM "people_playlist" j JOIN "songs" s ON s."pk" = j."target_pk" ORDER BY 2
                """
            #expect(try links.linkInPlace(plan, placed(["s1", "s2"])) == 2)
            #expect(try links.linkInPlace(plan, placed(["s1", "s2"])) == 0)
            #expect(try db.rows(listed) == ["s1|0", "s2|1"])
            // Reordered: both places move; a new one is made with its place.
            #expect(try links.linkInPlace(plan, placed(["s2", "s1", "s3"])) == 3)
            #expect(try db.rows(listed) == ["s2|0", "s1|1", "s3|2"])
            #expect(try links.largestPlaces(plan, of: [ann]) == [ann: 2])
            // A move that is part of a link counted elsewhere is written, not counted.
            #expect(try links.linkInPlace(plan, placed(["s3", "s2", "s1"], counts: false)) == 0)
            #expect(try db.rows(listed) == ["s3|0", "s2|1", "s1|2"])
        }

        @Test(arguments: ContractStore.allCases)
        func waitingLinksAreLinkedInTheSecondPass(_ kind: ContractStore) throws {
            let db = try ContractDatabase(kind)
            let ann = try db.insert("people", ["ann"])["ann"]!
            var pending = db.store.pendingLinks()
            #expect(pending.isEmpty)
            let position = InputPosition(line: 3, column: 7, offset: 0)
            // Ann names her employer, a pet, a friend and a song before any of them exists.
            try pending.addToOnes([db.plan("Person.employer")], source: ann, keys: [.text("acme")], decided: [false],
                                  existingRow: false, newRow: true, input: 0, position: position)
            try pending.add(plan: db.plan("Person.pets"), source: ann, key: .text("rex"), input: 0, position: position, order: nil)
            try pending.add(plan: db.plan("Person.friends"), source: ann, key: .text("bob"), input: 0, position: position, order: nil)
            try pending.add(plan: db.plan("Person.playlist"), source: ann, key: .text("s1"), input: 0, position: position, order: 4)
            #expect(!pending.isEmpty)
            #expect(pending.waiting(db.plan("Person.employer")) == 1)
            #expect(pending.hasWaitingToOnes(of: db.entity("Person")))
            try db.insert("companies", ["acme"])
            try db.insert("pets", ["rex"])
            let bob = try db.insert("people", ["bob"])["bob"]!
            try db.insert("songs", ["s1"])

            #expect(pending.passes(Array(db.plans.joined())).map { $0.map(\.name) }
                == [["Person.employer"], ["Person.pets"], ["Person.friends"], ["Person.playlist"]])
            let outcomes = try db.resolveAll(pending)
            #expect(outcomes.mapValues(\.linked) == ["Person.employer": 1, "Person.pets": 1, "Person.friends": 1, "Person.playlist": 1])
            #expect(outcomes.values.allSatisfy { $0.unresolved == 0 && $0.stubs == 0 })
            #expect(try db.rows(#"SELECT p."id", c."id" FROM "people" p JOIN "companies" c ON c."pk" = p."employer_pk""#) == ["ann|acme"])
            #expect(try db.rows(#"SELECT "id", "owner_pk" FROM "pets""#) == ["rex|\(ann)"])
            #expect(try db.rows(#"SELECT "source_pk", "target_pk" FROM "people_friends""#) == ["\(ann)|\(bob)"])
            let place = db.plan("Person.playlist").positionColumn!
            #expect(try db.rows(#"SELECT "source_pk", "\#(place)" FROM "people_playlist""#) == ["\(ann)|4"])
        }

        @Test(arguments: ContractStore.allCases)
        func aLaterRecordOfTheSameRowDecidesItsToOnes(_ kind: ContractStore) throws {
            let db = try ContractDatabase(kind)
            let people = try db.insert("people", ["ann", "bob"])
            let employer = db.plan("Person.employer")
            var pending = db.store.pendingLinks()
            let first = InputPosition(line: 1, column: 1, offset: 0)
            let later = InputPosition(line: 9, column: 1, offset: 0)
            // Ann's first record waits for "gone", her later one makes the link itself: nothing
            // waits for her any more. Bob's first record waits for "gone", his later one for "acme".
            try pending.addToOnes([employer], source: people["ann"]!, keys: [.text("gone")], decided: [false],
                                  existingRow: false, newRow: true, input: 0, position: first)
            try pending.addToOnes([employer], source: people["bob"]!, keys: [.text("gone")], decided: [false],
                                  existingRow: false, newRow: true, input: 0, position: first)
            try pending.addToOnes([employer], source: people["ann"]!, keys: [nil], decided: [true],
                                  existingRow: true, newRow: true, input: 0, position: later)
            try pending.addToOnes([employer], source: people["bob"]!, keys: [.text("acme")], decided: [false],
                                  existingRow: true, newRow: true, input: 0, position: later)
            try db.insert("companies", ["acme"])
            let outcome = try db.resolveAll(pending, policy: .fail)["Person.employer"]
            #expect(outcome?.linked == 1)
            #expect(outcome?.unresolved == 0)
            #expect(try db.rows(#"SELECT p."id", c."id" FROM "people" p LEFT JOIN "companies" c ON c."pk" = p."employer_pk" ORDER BY 1"#)
                == ["ann|", "bob|acme"])
        }

        @Test(arguments: ContractStore.allCases)
        func aLaterListForgetsTheIdsAnEarlierOneLeftWaiting(_ kind: ContractStore) throws {
            let db = try ContractDatabase(kind)
            let people = try db.insert("people", ["ann", "bob"])
            let friends = db.plan("Person.friends")
            var pending = db.store.pendingLinks()
            let position = InputPosition(line: 1, column: 1, offset: 0)
            // Ann lists x and y, then Bob lists z; a later record of Ann replaces her list with
            // [w]: x and y no longer wait, z still does.
            for (source, key) in [("ann", "x"), ("ann", "y"), ("bob", "z")] {
                try pending.add(plan: friends, source: people[source]!, key: .text(key), input: 0, position: position, order: nil)
            }
            try pending.forget(friends, sources: [people["ann"]!])
            #expect(pending.waiting(friends) == 1)
            try pending.add(plan: friends, source: people["ann"]!, key: .text("w"), input: 0, position: position, order: nil)
            try db.insert("people", ["w", "x", "y", "z"])
            let outcome = try db.resolveAll(pending, policy: .fail)["Person.friends"]
            #expect(outcome?.linked == 2)
            #expect(try db.rows(#"SELECT a."id", b."id" FROM "people_friends" f JOIN "people" a ON a."pk" = f."source_pk" JOIN "people" b ON b."pk" = f."target_pk" ORDER BY 1"#)
                == ["ann|w", "bob|z"])
        }

        @Test(arguments: ContractStore.allCases)
        func whatIsStillMissingFollowsTheUnresolvedPolicy(_ kind: ContractStore) throws {
            for policy in Model.UnresolvedPolicy.allCases {
                let db = try ContractDatabase(kind)
                let people = try db.insert("people", ["ann", "bob"])
                var pending = db.store.pendingLinks()
                for (name, line) in [("ann", 2), ("bob", 5)] {
                    try pending.addToOnes([db.plan("Person.employer")], source: people[name]!, keys: [.text("nowhere")], decided: [false],
                                          existingRow: false, newRow: true, input: 0, position: InputPosition(line: line, column: 3, offset: 0))
                }
                try pending.add(plan: db.plan("Person.friends"), source: people["ann"]!, key: .text("nobody"), input: 0,
                                position: InputPosition(line: 2, column: 3, offset: 0), order: nil)
                switch policy {
                case .stub:
                    let outcomes = try db.resolveAll(pending, policy: .stub)
                    #expect(outcomes["Person.employer"]?.stubs == 1)
                    #expect(outcomes["Person.employer"]?.linked == 2)
                    #expect(outcomes["Person.friends"]?.stubs == 1)
                    #expect(outcomes["Person.friends"]?.linked == 1)
                    #expect(try db.rows(#"SELECT p."id", c."id" FROM "people" p JOIN "companies" c ON c."pk" = p."employer_pk" ORDER BY 1"#)
                        == ["ann|nowhere", "bob|nowhere"])
                    #expect(try db.rows(#"SELECT "id", "name" FROM "people" ORDER BY 1"#) == ["ann|", "bob|", "nobody|"])
                case .null:
                    let outcomes = try db.resolveAll(pending, policy: .null)
                    let employer = try #require(outcomes["Person.employer"])
                    #expect(employer.linked == 0)
                    #expect(employer.unresolved == 2)
                    #expect(employer.examples == [
                        UnresolvedLink(relationship: "Person.employer", key: .text("nowhere"), source: "in.json",
                                       position: InputPosition(line: 2, column: 3, offset: 0)),
                        UnresolvedLink(relationship: "Person.employer", key: .text("nowhere"), source: "in.json",
                                       position: InputPosition(line: 5, column: 3, offset: 0)),
                    ])
                    #expect(outcomes["Person.friends"]?.unresolved == 1)
                    #expect(try db.rows(#"SELECT count(*) FROM "people" WHERE "employer_pk" IS NOT NULL"#) == ["0"])
                    #expect(try db.rows(#"SELECT count(*) FROM "companies""#) == ["0"])
                case .fail:
                    let error = #expect(throws: SluiceError.self) { try db.resolveAll(pending, policy: .fail) }
                    #expect(error?.message == "Person.employer: unresolved reference \(ColumnValue.text("nowhere")) (and 1 more)")
                    #expect(error?.source == "in.json")
                    #expect(error?.position == InputPosition(line: 2, column: 3, offset: 0))
                }
            }
        }

        @Test(arguments: ContractStore.allCases)
        func deleteMissingDeletesTheRowsNotMentionedAndTheirLinks(_ kind: ContractStore) throws {
            let db = try ContractDatabase(kind)
            let people = try db.insert("people", ["ann", "bob"])
            let pets = try db.insert("pets", ["rex"])
            let links = db.store.links
            _ = try links.link(db.plan("Person.friends"), [LinkPair(source: people["ann"]!, target: people["bob"]!)])
            _ = try links.link(db.plan("Person.pets"), [LinkPair(source: people["bob"]!, target: pets["rex"]!)])
            let person = db.entity("Person")
            let touched = try db.store.touchedRows(entities: [person])
            #expect(touched.remembers(person))
            #expect(!touched.remembers(db.entity("Pet")))
            try touched.record([people["ann"]!], of: person)
            try touched.record([people["ann"]!], of: person)  // a later batch naming her again
            let deleted = try touched.deleteUntouched(plans: db.plans, tables: db.tables) { _ in }
            #expect(deleted == [person: 1])
            #expect(try db.rows(#"SELECT "id" FROM "people""#) == ["ann"])
            #expect(try db.rows(#"SELECT count(*) FROM "people_friends""#) == ["0"])
            #expect(try db.rows(#"SELECT "id", "owner_pk" FROM "pets""#) == ["rex|"])
        }

        /// A row deleted with the row it links is not unlinked first: its column is left as it
        /// is for the delete, and only the rows that stay are written (a withdrawn trip's stop
        /// times were each written twice).
        @Test(arguments: ContractStore.allCases)
        func deleteMissingUnlinksOnlyTheRowsThatStay(_ kind: ContractStore) throws {
            let db = try ContractDatabase(kind)
            let people = try db.insert("people", ["ann", "bob"])
            let pets = try db.insert("pets", ["fido", "rex", "spot"])
            _ = try db.store.links.link(db.plan("Person.pets"), [
                LinkPair(source: people["ann"]!, target: pets["fido"]!), LinkPair(source: people["bob"]!, target: pets["rex"]!),
                LinkPair(source: people["bob"]!, target: pets["spot"]!),
            ])
            let updatesOfPets = switch kind {
            case .sqlite, .sqliteZPK:
                #"SELECT count(*) FROM "temp"."pet_updates""#
            case .postgres:
                "SELECT n_tup_upd FROM pg_stat_xact_user_tables WHERE relname = 'pets'"
            }
            if kind != .postgres {
                _ = try db.rows(#"CREATE TEMP TABLE "pet_updates" ("id" TEXT)"#)
                _ = try db.rows(#"CREATE TEMP TRIGGER "pet_updated" AFTER UPDATE ON "main"."pets" BEGIN INSERT INTO "pet_updates" VALUES (old."id"); END"#)
            }
            let updatedBefore = try db.rows(updatesOfPets)
            let (person, pet) = (db.entity("Person"), db.entity("Pet"))
            let touched = try db.store.touchedRows(entities: [person, pet])
            try touched.record([people["ann"]!], of: person)
            try touched.record([pets["fido"]!, pets["spot"]!], of: pet)
            let deleted = try touched.deleteUntouched(plans: db.plans, tables: db.tables) { _ in }
            #expect(deleted == [person: 1, pet: 1])
            #expect(try db.rows(#"SELECT "p"."id", "o"."id" FROM "pets" AS "p" LEFT JOIN "people" AS "o" ON "o"."pk" = "p"."owner_pk" ORDER BY "p"."id""#)
                == ["fido|ann", "spot|"])
            // Spot's owner emptied: one update of the pets; rex, deleted, none.
            #expect(try db.rows(updatesOfPets) == [String(Int(updatedBefore[0])! + 1)])
        }

        /// The rows mentioned are kept as runs of keys: a batch of consecutive keys is one row
        /// of the temporary table, and whatever the order, repeats and gaps of the keys
        /// mentioned (none, all, the first and last rows left out, shuffled batches naming rows
        /// again), exactly the rows never mentioned are deleted.
        @Test(arguments: ContractStore.allCases)
        func deleteMissingDeletesExactlyTheRowsNotMentionedWhateverTheirOrder(_ kind: ContractStore) throws {
            var random = PropertyRandom(seed: 53)
            for round in 0..<6 {
                let db = try ContractDatabase(kind)
                let people = try db.insert("people", (0..<300).map { "p\($0)" })
                // Keys with holes, as rows deleted by an earlier import leave them.
                _ = try db.rows(#"DELETE FROM "people" WHERE "id" IN ('p10', 'p11', 'p200')"#)
                let ids = (0..<300).map { "p\($0)" }.filter { !["p10", "p11", "p200"].contains($0) }
                let mentioned: [String] = switch round {
                case 0: []
                case 1: ids
                case 2: Array(ids.dropFirst().dropLast())
                default: ids.filter { _ in random.chance(round * 15) }
                }
                let person = db.entity("Person")
                let touched = try db.store.touchedRows(entities: [person])
                var keys = mentioned.map { people[$0]! }
                if round >= 3 { keys.shuffle(using: &random) }
                if round == 1 {
                    // In one batch: a run per stretch of keys between the holes.
                    try touched.record(keys, of: person)
                    #expect(try db.rows(#"SELECT count(*) FROM "sluice_touched_runs""#) == ["3"])
                }
                var start = 0
                while round != 1, start < keys.count {
                    let end = min(keys.count, start + random.int(1...80))
                    try touched.record(Array(keys[start..<end]), of: person)
                    if random.chance(30) { try touched.record(Array(keys[start..<end].prefix(5)), of: person) }
                    start = end
                }
                let deleted = try touched.deleteUntouched(plans: db.plans, tables: db.tables) { _ in }
                #expect(deleted[person] ?? 0 == ids.count - mentioned.count, "round \(round)")
                #expect(try db.rows(#"SELECT "id" FROM "people""#).sorted() == mentioned.sorted(), "round \(round)")
            }
        }
    }
}
