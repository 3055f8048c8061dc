internal import CSQLite

extension Connection {
    /// Writes the open transaction's changed pages to the file (without committing) and frees
    /// every cached page no statement is using, in each database of the connection (the
    /// temporary one too). A page changed by the transaction cannot be freed until it is
    /// written: an import's whole cache is such pages once its load and second pass are done.
    func releaseCachedPages() throws(SQLiteError) {
        let rc = sqlite3_db_cacheflush(handle)
        guard rc == SQLITE_OK else { throw SQLiteError(resultCode: rc, db: handle, sql: nil) }
        _ = sqlite3_db_release_memory(handle)
    }
}
