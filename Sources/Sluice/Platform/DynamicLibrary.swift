#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A shared library opened at run time (`dlopen`), for a dependency only some imports use:
/// linked at build time, libpq and the TLS, Kerberos and LDAP libraries it needs would be
/// loaded and relocated by every run of `sluice`, SQLite imports included (3% of a small
/// import's instructions went to the dynamic linker).
final class DynamicLibrary: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer

    /// Opens the first of `names` that loads; throws `dlerror()`'s reason for the last one.
    init(opening names: [String]) throws(DynamicLibraryError) {
        var reason = "no library name"
        for name in names {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) {
                self.handle = handle
                return
            }
            reason = dlerror().map { String(cString: $0) } ?? "cannot open \(name)"
        }
        throw DynamicLibraryError(reason: reason)
    }

    /// Whether one of `names` is loaded in the process already (`RTLD_NOLOAD`: nothing is
    /// loaded by asking).
    static func isLoaded(_ names: [String]) -> Bool {
        for name in names {
            if let handle = dlopen(name, RTLD_NOW | RTLD_NOLOAD) {
                dlclose(handle)
                return true
            }
        }
        return false
    }

    /// Closes the library (`dlclose`): the system unloads it, and the libraries it loaded,
    /// once no other handle holds them. No function found through it may be called after.
    /// Without a call the library stays loaded until the process ends (libpq's does).
    func close() {
        dlclose(handle)
    }

    /// The address of `name`, cast to the function type `T` (a `@convention(c)` type).
    func function<T>(_ name: String) throws(DynamicLibraryError) -> T {
        guard let address = dlsym(handle, name) else {
            throw DynamicLibraryError(reason: "\(name) not found: " + (dlerror().map { String(cString: $0) } ?? ""))
        }
        return unsafeBitCast(address, to: T.self)
    }
}

struct DynamicLibraryError: Error {
    var reason: String
}
