internal import CLibXML2

/// libxml2's functions, found at run time (`DynamicLibrary`) as libpq's are: only reading a
/// Core Data model loads libxml2. Linked, it was loaded into every run of `sluice` with the
/// ICU and liblzma libraries it needs, 1.2 MiB of resident memory for imports that never read
/// XML (`docs/architecture.md`, dependencies). The few types and constants Sluice reads are
/// declared in `CLibXML2`'s shim (libxml2's own headers are not needed to build); the
/// functions are called through these pointers and nowhere else. Parser contexts and
/// documents are opaque.
struct LibXML2: @unchecked Sendable {
    let initParser: @convention(c) () -> Void
    let newParserCtxt: @convention(c) () -> OpaquePointer?
    let freeParserCtxt: @convention(c) (OpaquePointer?) -> Void
    let ctxtReadMemory: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?,
                                        UnsafePointer<CChar>?, Int32) -> OpaquePointer?
    let freeDoc: @convention(c) (OpaquePointer?) -> Void
    let docGetRootElement: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<sluice_xmlNode>?
    let ctxtGetLastError: @convention(c) (OpaquePointer?) -> UnsafePointer<sluice_xmlError>?

    /// Loaded on first use, once per process, and its global state set up then (libxml2 asks
    /// for `xmlInitParser` before any thread parses).
    static let shared: Result<LibXML2, SluiceError> = {
        let loaded = load(names: names)
        if case .success(let library) = loaded { library.initParser() }
        return loaded
    }()

    /// Debian and Red Hat (libxml2 2.14 and later have the soname `libxml2.so.16`), the macOS
    /// system's, then Homebrew's.
    static let names = ["libxml2.so.2", "libxml2.so.16", "libxml2.so", "/usr/lib/libxml2.2.dylib", "libxml2.2.dylib",
                        "/opt/homebrew/opt/libxml2/lib/libxml2.2.dylib", "/usr/local/opt/libxml2/lib/libxml2.2.dylib"]

    /// The first of `names` that loads with every function, or why none did.
    static func load(names: [String]) -> Result<LibXML2, SluiceError> {
        do throws(DynamicLibraryError) {
            return .success(try LibXML2(DynamicLibrary(opening: names)))
        } catch {
            return .failure(SluiceError(.cannotOpenInput, "cannot load libxml2, which reads Core Data models "
                + "(install libxml2, or libxml2 with Homebrew): \(error.reason)"))
        }
    }

    private init(_ library: DynamicLibrary) throws(DynamicLibraryError) {
        initParser = try library.function("xmlInitParser")
        newParserCtxt = try library.function("xmlNewParserCtxt")
        freeParserCtxt = try library.function("xmlFreeParserCtxt")
        ctxtReadMemory = try library.function("xmlCtxtReadMemory")
        freeDoc = try library.function("xmlFreeDoc")
        docGetRootElement = try library.function("xmlDocGetRootElement")
        ctxtGetLastError = try library.function("xmlCtxtGetLastError")
    }
}
