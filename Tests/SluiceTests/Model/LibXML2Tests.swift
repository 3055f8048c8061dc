import Foundation
import Synchronization
import Testing
import SluiceTestSupport
@testable import Sluice

/// libxml2 opened at run time (`LibXML2`): the declarations of `Sources/CLibXML2/shim.h` match
/// libxml2's own headers, and a missing library is one clear error.
@Suite struct LibXML2Tests {
    /// Compiles static assertions over both declarations, where a C compiler and libxml2's
    /// headers are installed (`libxml2-dev`); otherwise says why it checked nothing.
    @Test func theShimMatchesLibxml2sHeaders() throws {
        let directory = TemporaryDirectory()
        let source = directory.file("layout.c")
        try Self.layoutCheck.write(toFile: source, atomically: true, encoding: .utf8)
        let command = "cc -fsyntax-only $(pkg-config --cflags libxml-2.0) -I'\(PackageFiles.path("Sources/CLibXML2"))' '\(source)'"
        let headers = Process()
        headers.executableURL = URL(fileURLWithPath: "/bin/sh")
        headers.arguments = ["-c", "command -v cc && pkg-config --exists libxml-2.0"]
        headers.standardOutput = FileHandle.nullDevice
        try headers.run()
        headers.waitUntilExit()
        guard headers.terminationStatus == 0 else {
            print("LibXML2Tests: no C compiler or no libxml2 headers; the shim's layout was not checked")
            return
        }
        let compile = Process()
        compile.executableURL = URL(fileURLWithPath: "/bin/sh")
        compile.arguments = ["-c", command + " 2>&1"]
        let output = Pipe()
        compile.standardOutput = output
        try compile.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        compile.waitUntilExit()
        #expect(compile.terminationStatus == 0, "\(text)")
    }

    @Test func aMissingLibraryIsOneError() {
        guard case .failure(let error) = LibXML2.load(names: ["libsluice-no-such-xml.so"]) else {
            Issue.record("a library that does not exist loaded")
            return
        }
        #expect(error.kind == .cannotOpenInput)
        #expect(error.message.hasPrefix("cannot load libxml2, which reads Core Data models (install libxml2, or libxml2 with Homebrew): "),
                "\(error)")
        #expect(error.message.contains("libsluice-no-such-xml.so"), "\(error)")
    }

    @Test func theLibraryLoadsHere() throws {
        #expect(try LibXML2.withLoaded { _ in 1 } == 1)
    }

    /// Threads reading XML at once share one load of the library, and each reads its own
    /// document whole, while others load it again and unload it around them.
    @Test func threadsLoadReadAndUnloadSideBySide() throws {
        let results = Mutex<[Int: Result<XMLTree.Element, SluiceError>]>([:])
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let bytes = Array(#"<model n="\#(index)"><entity name="E\#(index)"/></model>"#.utf8)
            let tree = Result { () throws(SluiceError) in try XMLTree.parse(bytes, sourceName: "m\(index)") }
            results.withLock { $0[index] = tree }
        }
        let trees = results.withLock { $0 }
        for index in 0..<64 {
            #expect(try trees[index]?.get() == XMLTree.Element(
                name: "model", attributes: [.init(name: "n", value: "\(index)")],
                children: [.init(name: "entity", attributes: [.init(name: "name", value: "E\(index)")])]))
        }
    }

    /// Whether a library is loaded already is asked without loading it: that is how a libxml2
    /// the host loaded first (and may be parsing with) is told apart, and left alone.
    @Test func aLibraryLoadedAlreadyIsToldApartWithoutLoadingOne() {
        #if canImport(Darwin)
        #expect(DynamicLibrary.isLoaded(["/usr/lib/libSystem.B.dylib"]))
        #elseif os(Linux)
        #expect(DynamicLibrary.isLoaded(["libc.so.6"]) && DynamicLibrary.isLoaded(["libz.so.1"]))
        #expect(!DynamicLibrary.isLoaded(["libsluice-no-such-library.so"]))
        // Python's XML parser, installed with python3 and never loaded by this process: asking
        // does not load it.
        #expect(!DynamicLibrary.isLoaded(["libexpat.so.1"]))
        #expect(!Self.mappedFiles().contains { $0.contains("libexpat") })
        #endif
    }

    #if os(Linux)
    /// Loaded only while some thread reads XML: once the last reader is done, libxml2 and
    /// ICU's common library it loaded are gone from the process. Other tests may be reading a
    /// model at that moment: this waits (up to 60 s) for one when none is.
    @Test func theLibraryIsUnloadedOnceNoThreadReads() throws {
        let whileReading = try LibXML2.withLoaded { _ in Self.mappedFiles() }
        #expect(whileReading.contains { $0.contains("libxml2") })
        let deadline = ContinuousClock.now + .seconds(60)
        var mapped = Self.mappedFiles()
        while mapped.contains(where: { $0.contains("libxml2") }), ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
            mapped = Self.mappedFiles()
        }
        #expect(!mapped.contains { $0.contains("libxml2") || $0.contains("libicuuc") }, "\(mapped)")
    }

    /// The files mapped into this process (`/proc/self/maps`).
    private static func mappedFiles() -> Set<String> {
        // Read to the end: the file's size says 0.
        let bytes = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd()) ?? nil
        let maps = String(decoding: bytes ?? Data(), as: UTF8.self)
        return Set(maps.split(separator: "\n").compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).first.map(String.init) })
    }
    #endif

    private static let layoutCheck = """
        #include <stddef.h>
        #include <libxml/parser.h>
        #include <libxml/tree.h>
        #include <libxml/xmlerror.h>
        #include "shim.h"
        #define SAME(a, b, f) _Static_assert(offsetof(a, f) == offsetof(b, f) && sizeof(((a *)0)->f) == sizeof(((b *)0)->f), #a "." #f);
        SAME(xmlNode, sluice_xmlNode, type) SAME(xmlNode, sluice_xmlNode, name) SAME(xmlNode, sluice_xmlNode, children)
        SAME(xmlNode, sluice_xmlNode, next) SAME(xmlNode, sluice_xmlNode, content) SAME(xmlNode, sluice_xmlNode, properties)
        SAME(xmlAttr, sluice_xmlAttr, type) SAME(xmlAttr, sluice_xmlAttr, name) SAME(xmlAttr, sluice_xmlAttr, children)
        SAME(xmlAttr, sluice_xmlAttr, next)
        SAME(xmlError, sluice_xmlError, message) SAME(xmlError, sluice_xmlError, line) SAME(xmlError, sluice_xmlError, int2)
        _Static_assert(XML_ELEMENT_NODE == SLUICE_XML_ELEMENT_NODE && XML_TEXT_NODE == SLUICE_XML_TEXT_NODE
            && XML_CDATA_SECTION_NODE == SLUICE_XML_CDATA_SECTION_NODE && XML_ENTITY_REF_NODE == SLUICE_XML_ENTITY_REF_NODE,
            "node types");
        _Static_assert(XML_PARSE_NOERROR == SLUICE_XML_PARSE_NOERROR && XML_PARSE_NOWARNING == SLUICE_XML_PARSE_NOWARNING
            && XML_PARSE_NONET == SLUICE_XML_PARSE_NONET, "parse options");

        """
}
