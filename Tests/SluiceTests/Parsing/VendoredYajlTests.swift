import CYajl
import Foundation
import SluiceTestSupport
import Testing

/// The yajl Sluice parses with is the copy compiled from `Vendor/CYajl` (2.1.0 with the
/// distributions' security fixes), not a system library.
@Suite struct VendoredYajlTests {
    @Test func itIsYajl210() {
        #expect(yajl_version() == 20100)
    }

    /// yajl's files are third-party code and live in `Vendor/CYajl` with their licence, apart
    /// from Sluice's own sources: `Sources/` holds none of them.
    @Test func itIsVendoredApartFromOurSources() throws {
        let licence = String(decoding: try PackageFiles.bytes("Vendor/CYajl/COPYING"), as: UTF8.self)
        #expect(licence.contains("Copyright (c) 2007-2014, Lloyd Hilaiel"))
        let readme = String(decoding: try PackageFiles.bytes("Vendor/CYajl/README.md"), as: UTF8.self)
        #expect(readme.contains("tag `2.1.0`"))
        let sources = try #require(FileManager.default.enumerator(atPath: PackageFiles.path("Sources")))
        let yajlFiles = sources.compactMap { $0 as? String }.filter { $0.split(separator: "/").last?.hasPrefix("yajl") == true }
        #expect(yajlFiles == [])
    }

    #if os(Linux)
    /// No libyajl is mapped into this process: the parser is linked in.
    @Test func noSystemYajlIsLoaded() throws {
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        #expect(!maps.contains("libyajl"))
    }
    #endif

    /// CVE-2017-16516's fix (`src/yajl_encode.c`): a lone high surrogate escape is decoded as
    /// `?` and the character after it is kept (2.1.0 as released skipped it, and read past
    /// the string's end when the escape ended it).
    @Test func aLoneHighSurrogateKeepsTheNextCharacter() throws {
        #expect(try Self.strings(in: #"["\ud800x", "a\ud800", "\ud83d\ude00"]"#) == ["?x", "a?", "😀"])
    }

    /// The strings yajl hands over for `json`, decoded.
    private static func strings(in json: String) throws -> [String] {
        final class Box { var strings: [String] = [] }
        let box = Box()
        var callbacks = yajl_callbacks(
            yajl_null: nil, yajl_boolean: nil, yajl_integer: nil, yajl_double: nil, yajl_number: nil,
            yajl_string: { context, text, length in
                let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
                box.strings.append(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self))
                return 1
            },
            yajl_start_map: nil, yajl_map_key: nil, yajl_end_map: nil, yajl_start_array: nil, yajl_end_array: nil)
        let handle = try #require(yajl_alloc(&callbacks, nil, Unmanaged.passUnretained(box).toOpaque()))
        defer { yajl_free(handle) }
        let bytes = Array(json.utf8)
        try #require(bytes.withUnsafeBufferPointer { yajl_parse(handle, $0.baseAddress, $0.count) } == yajl_status_ok)
        try #require(yajl_complete_parse(handle) == yajl_status_ok)
        return box.strings
    }
}
