// FoundationEssentials (Foundation on Apple platforms) for `URL` only, as
// SluiceError+LocalizedError.swift: the library never links Foundation proper on Linux.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `URL` forms of what takes a file's path (`docs/library.md#urls`): a file URL is its path,
/// any other URL a usage error. Each forwards to the path's form, the one body.
extension Importer {
    /// Imports the file at `url` (a file URL), as `importFile(_:)` with its path. Gzip is
    /// detected by its magic bytes.
    public func importFile(_ url: URL) throws(SluiceError) {
        try importFile(inputPath(url))
    }

    /// The path of an input's file URL; any other URL fails the import (rolled back, as any
    /// call that throws) with a usage error.
    private func inputPath(_ url: URL) throws(SluiceError) -> String {
        do {
            return try url.filePath(naming: "input", hint: "download it first, or import its bytes as they arrive: "
                                        + "Importer.run(…, chunks:)")
        } catch {
            cancel()
            throw error
        }
    }
}

extension Importer.Database {
    /// An SQLite file in Sluice's layout at `url`, a file URL (`.sqlite(path:)`); any other URL
    /// is a usage error.
    public static func sqlite(_ url: URL) throws(SluiceError) -> Self {
        .sqlite(path: try url.filePath(naming: "Importer.Database.sqlite", hint: "an SQLite database is a file"))
    }

    /// Core Data's store at `url`, a file URL (`.coreDataStore(path:)`); any other URL is a
    /// usage error.
    public static func coreDataStore(_ url: URL) throws(SluiceError) -> Self {
        .coreDataStore(path: try url.filePath(naming: "Importer.Database.coreDataStore", hint: "Core Data's store is a file"))
    }

    /// A PostgreSQL database at `url`, a `postgresql://` or `postgres://` URL
    /// (`.postgreSQL(uri:schema:)`).
    public static func postgreSQL(_ url: URL, schema: String = "public") -> Self {
        .postgreSQL(uri: url.absoluteString, schema: schema)
    }
}

extension URL {
    /// The path of a file URL; for any other URL a usage error naming `what`, then `hint`
    /// (`input 'https://…' is not a file URL: download it first, …`).
    func filePath(naming what: String, hint: String) throws(SluiceError) -> String {
        guard isFileURL else { throw SluiceError(.usage, "\(what) '\(absoluteString)' is not a file URL: \(hint)") }
        return path(percentEncoded: false)
    }
}

extension Importer {
    /// Imports the file at `url` (a file URL) whose records are all of `entity`, at `path`
    /// inside it, as `importFile(_:entity:path:)` with its path.
    public func importFile(_ url: URL, entity: String, path: String? = nil) throws(SluiceError) {
        try importFile(inputPath(url), entity: entity, path: path)
    }
}
