internal import CMalloc
internal import CSQLite

/// Settings for a whole process that runs big imports. A library must not change its host's
/// allocator or SQLite's global configuration on its own, so the host opts in: the `sluice`
/// command calls this first thing; an app embedding Sluice may or may not.
public enum ProcessTuning {
    /// Call before anything else uses SQLite in the process.
    ///
    /// * glibc's malloc maps and unmaps blocks of 128 KiB and more (batches, big statements)
    ///   instead of keeping them: left alone, glibc raises that threshold after the first
    ///   large block is freed and keeps freed memory, which took the document workload's peak
    ///   from 38 MiB to 50 MiB. Nothing happens on other C libraries.
    /// * SQLite's memory statistics are turned off: they take a global mutex around every
    ///   allocation SQLite makes (a few percent of a big import), for figures nobody reads.
    ///   SQLite accepts this only before it is initialised; later it is a no-op.
    public static func applyForLargeImports() {
        _ = sluice_fix_mmap_threshold(128 * 1024)
        _ = sluice_sqlite_disable_memory_statistics()
    }
}
