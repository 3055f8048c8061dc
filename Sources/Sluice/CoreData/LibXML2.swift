internal import CLibXML2
import Synchronization

/// libxml2's functions, found at run time (`DynamicLibrary`) as libpq's are: only reading a
/// Core Data model loads libxml2. Linked, it was loaded into every run of `sluice` with the
/// ICU and liblzma libraries it needs, 1.2 MiB of resident memory for imports that never read
/// XML (`docs/architecture.md`, dependencies). The few types and constants Sluice reads are
/// declared in `CLibXML2`'s shim (libxml2's own headers are not needed to build); the
/// functions are called through these pointers and nowhere else. Parser contexts and
/// documents are opaque.
struct LibXML2: @unchecked Sendable {
    let initParser: @convention(c) () -> Void
    let cleanupParser: @convention(c) () -> Void
    let newParserCtxt: @convention(c) () -> OpaquePointer?
    let freeParserCtxt: @convention(c) (OpaquePointer?) -> Void
    let ctxtReadMemory: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?,
                                        UnsafePointer<CChar>?, Int32) -> OpaquePointer?
    let freeDoc: @convention(c) (OpaquePointer?) -> Void
    let docGetRootElement: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<sluice_xmlNode>?
    let ctxtGetLastError: @convention(c) (OpaquePointer?) -> UnsafePointer<sluice_xmlError>?
    private let library: DynamicLibrary

    /// Runs `body` with libxml2 loaded. The first reader in the process loads it and sets up
    /// its global state (libxml2 asks for `xmlInitParser` before any thread parses); the last
    /// one to finish frees that state (`xmlCleanupParser`, which no other thread may be
    /// parsing through) and closes the library, which unloads it with ICU's common library.
    /// An import reads its model first and then writes for minutes without XML: loaded to the
    /// end, libxml2 and ICU held 1.7 MiB of the W3 Core Data update's peak resident memory
    /// (`docs/performance.md`).
    ///
    /// Where libxml2 was loaded before Sluice first loaded it (a host app's: Foundation's
    /// `XMLParser` on Linux is libxml2), it is shared, and its state is never freed: the host
    /// may be parsing. On Apple platforms libxml2 is in the system's shared cache, which never
    /// unloads: there it stays loaded once loaded, and is never cleaned up.
    static func withLoaded<T>(_ body: (LibXML2) throws(SluiceError) -> T) throws(SluiceError) -> T {
        let library = try readers.withLock { (state) throws(SluiceError) -> LibXML2 in
            if state.library == nil {
                state.shared = DynamicLibrary.isLoaded(names)
                let loaded = try load(names: names).get()
                loaded.initParser()
                state.library = loaded
            }
            state.count += 1
            return state.library!
        }
        defer {
            readers.withLock { state in
                state.count -= 1
                #if !canImport(Darwin)
                if state.count == 0, !state.shared, let library = state.library {
                    library.cleanupParser()
                    library.library.close()
                    state.library = nil
                }
                #endif
            }
        }
        return try body(library)
    }

    /// The library while some thread reads XML, how many do, and whether the process had
    /// loaded it before (then it stays).
    private static let readers = Mutex<(library: LibXML2?, count: Int, shared: Bool)>((nil, 0, false))

    /// Debian and Red Hat (libxml2 2.14 and later have the soname `libxml2.so.16`), the macOS
    /// system's, then Homebrew's.
    static let names = ["libxml2.so.2", "libxml2.so.16", "libxml2.so", "/usr/lib/libxml2.2.dylib", "libxml2.2.dylib",
                        "/opt/homebrew/opt/libxml2/lib/libxml2.2.dylib", "/usr/local/opt/libxml2/lib/libxml2.2.dylib"]

    /// The first of `names` that loads with every function, or why none did. The caller owns
    /// the library loaded (`withLoaded` closes it).
    static func load(names: [String]) -> Result<LibXML2, SluiceError> {
        do throws(DynamicLibraryError) {
            let library = try DynamicLibrary(opening: names)
            do throws(DynamicLibraryError) {
                return .success(try LibXML2(library))
            } catch {
                library.close()
                throw error
            }
        } catch {
            return .failure(SluiceError(.cannotOpenInput, "cannot load libxml2, which reads Core Data models "
                + "(install libxml2, or libxml2 with Homebrew): \(error.reason)"))
        }
    }

    private init(_ library: DynamicLibrary) throws(DynamicLibraryError) {
        self.library = library
        initParser = try library.function("xmlInitParser")
        cleanupParser = try library.function("xmlCleanupParser")
        newParserCtxt = try library.function("xmlNewParserCtxt")
        freeParserCtxt = try library.function("xmlFreeParserCtxt")
        ctxtReadMemory = try library.function("xmlCtxtReadMemory")
        freeDoc = try library.function("xmlFreeDoc")
        docGetRootElement = try library.function("xmlDocGetRootElement")
        ctxtGetLastError = try library.function("xmlCtxtGetLastError")
    }
}
