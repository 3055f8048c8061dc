import Testing
@testable import Sluice

/// How a PostgreSQL URI is named in messages and what of it is masked (`PostgresURI`), and the
/// names zero-config keys map to (`PostgresNames`): pure functions, no server.
@Suite struct PostgresNamingTests {
    @Test(arguments: [
        ("postgresql://u:pw@host/db", "postgresql://u:***@host/db"),
        ("postgresql://u@host/db?password=pw&sslmode=require", "postgresql://u@host/db?password=***&sslmode=require"),
        ("postgresql://u:pa/ss@host/db", "postgresql://u:***@host/db"),
        ("postgresql://u:p@ss@host/db", "postgresql://u:***@host/db"),
        ("postgresql://u:pa?ss@host/db", "postgresql://u:***@host/db"),
        ("postgresql://u:Secr3tPW@[::1/db", "postgresql://u:***@[::1/db"),
        ("postgresql:///db?host=/tmp", "postgresql:///db?host=/tmp"),
    ])
    func displayNameHidesThePassword(uri: String, expected: String) {
        #expect(PostgresURI.displayName(uri) == expected)
    }

    @Test func messagesLoseTheURIAndEveryFormOfThePassword() {
        let uri = "postgresql://u:Secr3t%2FPW%zz@host/db"
        #expect(PostgresURI.masked(#"invalid percent-encoded token: "Secr3t%2FPW%zz""#, uri: uri)
            == #"invalid percent-encoded token: "***""#)
        #expect(PostgresURI.masked(#"bad URI: "\#(uri)""#, uri: uri) == #"bad URI: "postgresql://u:***@host/db""#)
        // Decoded, and its pieces between the characters libpq splits at.
        #expect(PostgresURI.masked("password Secr3t/PW%zz, port PW%zz", uri: uri) == "password ***, port ***")
        #expect(PostgresURI.masked("no secret here", uri: "postgresql://u@host/db") == "no secret here")
    }

    @Test func keysPostgreSQLTakesKeepTheirNames() {
        for key in ["id", "a b", "Xmin2", "x_min", String(repeating: "k", count: 63), "pk_1", "é"] {
            #expect(PostgresNames.columnName(forKey: key) == key)
        }
    }

    @Test func otherKeysMapToDistinctStableLegalNames() {
        let long = String(repeating: "é", count: 40)
        let keys = ["", "xmin", "XMIN", "ctid", long + "a", long + "b", "a~0123456789abcdef"]
        let names = keys.map(PostgresNames.columnName(forKey:))
        #expect(names == keys.map(PostgresNames.columnName(forKey:)))
        #expect(names.allSatisfy { !$0.isEmpty && $0.utf8.count <= 63 && !PostgresNames.systemColumns.contains($0) })
        #expect(names[1].hasPrefix("xmin~") && names[2].hasPrefix("XMIN~"))
        // Keys equal ignoring ASCII case share a column, as every key does.
        #expect(ColumnName.fold(names[1]) == ColumnName.fold(names[2]))
        #expect(Set(names.map(ColumnName.fold)).count == keys.count - 1)
        // Cut between characters: é is two bytes.
        #expect(names[4].hasPrefix(String(repeating: "é", count: 23) + "~"))
        #expect(names[6] != keys[6])
    }
}
