internal import CMalloc

/// Memory the process has freed but its allocator still holds.
enum FreedMemory {
    /// Gives the pages of freed memory back to the system (glibc's `malloc_trim`, macOS's
    /// pressure relief): a one-off, which leaves the host's allocator settings alone.
    ///
    /// glibc keeps a freed block inside an arena (one per thread that allocated) unless it
    /// ends the arena; the page cache that SQLite gives up when an import's cache shrinks for
    /// its index builds stays there, between blocks still in use.
    static func returnToTheSystem() {
        sluice_return_free_memory()
    }
}
