import Foundation
import SluiceTestSupport
import Testing

/// `scripts/check-doc-comments`, which `scripts/test` runs before the tests: every public
/// symbol of the library has a doc comment, the page DocC shows for it.
@Suite struct DocCommentCheckTests {
    @Test func everyPublicSymbolOfTheLibraryIsDocumented() throws {
        let result = try runProgram(PackageFiles.path("scripts/check-doc-comments"), [PackageFiles.root])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func publicSymbolsWithoutACommentFail() throws {
        let tree = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: tree.file("Sources/Sluice/Model"), withIntermediateDirectories: true)
        try tree.writeFile(Array("""
            /// Documented.
            public struct Point: Sendable {
                /// Documented, past an attribute.
                @inlinable
                public var x: Int
                public var y: Int
                var internalOnly: Int
                private(set) var hidden = 0

                public init(x: Int, y: Int) { self.x = x; self.y = y; internalOnly = 0 }
            }

            public enum Shape {
                /// Documented.
                case circle
                case square(Int)

                func area() -> Int { switch self { case .circle: 1
                    case .square(let side): side * side } }
            }

            /// Documented.
            public protocol Drawable {
                func draw()
                /// Documented.
                var name: String { get }
            }

            """.utf8), named: "Sources/Sluice/Model/Point.swift")

        let result = try runProgram(PackageFiles.path("scripts/check-doc-comments"), [tree.path])

        #expect(result.status == 1)
        #expect(result.stderr == """
            check-doc-comments: Sources/Sluice/Model/Point.swift:6: public var y: Int: no doc comment
            check-doc-comments: Sources/Sluice/Model/Point.swift:10: public init(x: Int, y: Int) { self.x = x; self.y = y; internalOnly = 0 }: no doc comment
            check-doc-comments: Sources/Sluice/Model/Point.swift:13: public enum Shape {: no doc comment
            check-doc-comments: Sources/Sluice/Model/Point.swift:16: case square(Int): no doc comment
            check-doc-comments: Sources/Sluice/Model/Point.swift:24: func draw(): no doc comment
            check-doc-comments: 5 public symbols without a doc comment

            """)
    }
}
