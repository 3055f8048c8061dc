import Foundation
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
        _ = try LibXML2.shared.get()
    }

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
