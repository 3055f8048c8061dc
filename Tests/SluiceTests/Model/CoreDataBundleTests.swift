import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Which `contents` file each form of a Core Data model means.
@Suite struct CoreDataBundleTests {
    private static let contents = #"<?xml version="1.0"?><model><entity name="A"/></model>"#

    private static func currentVersion(_ name: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>_XCCurrentVersionName</key>
        \t<string>\(name)</string>
        </dict>
        </plist>
        """
    }

    /// A bundle `M.xcdatamodeld` holding a version folder (with `contents`) per name.
    private func bundle(_ versions: [String], in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("M.xcdatamodeld")
        for version in versions {
            try FileManager.default.createDirectory(atPath: path + "/" + version, withIntermediateDirectories: true)
            try Data(Self.contents.utf8).write(to: URL(fileURLWithPath: path + "/" + version + "/contents"))
        }
        return path
    }

    @Test(arguments: [
        ("M.xcdatamodeld", true), ("M.xcdatamodeld/", true), ("a/M.xcdatamodel", true), ("M.xcdatamodel//", true),
        ("M.xcdatamodel/contents", true), ("x/M.xcdatamodeld/M 2.xcdatamodel/contents", true),
        ("contents", false), ("other/contents", false), ("model.json", false), ("M.xcdatamodeld.json", false),
    ])
    func namesTellTheForm(_ path: String, _ isCoreData: Bool) {
        #expect(CoreDataBundle.names(path) == isCoreData)
        #expect(ModelFile.isCoreDataModel(path: path) == isCoreData)
    }

    @Test func theOnlyVersionOfABundle() throws {
        let directory = TemporaryDirectory()
        let path = try bundle(["M.xcdatamodel"], in: directory)
        #expect(try CoreDataBundle.contentsPath(of: path) == path + "/M.xcdatamodel/contents")
        #expect(try CoreDataBundle.contentsPath(of: path + "/") == path + "/M.xcdatamodel/contents")
    }

    @Test func theCurrentVersionNamedByXCCurrentVersion() throws {
        let directory = TemporaryDirectory()
        let path = try bundle(["M.xcdatamodel", "M 2.xcdatamodel", "M 3.xcdatamodel"], in: directory)
        try Data(Self.currentVersion("M 2.xcdatamodel").utf8).write(to: URL(fileURLWithPath: path + "/.xccurrentversion"))
        #expect(try CoreDataBundle.contentsPath(of: path) == path + "/M 2.xcdatamodel/contents")
    }

    @Test func severalVersionsAndNoCurrentOne() throws {
        let directory = TemporaryDirectory()
        let path = try bundle(["M.xcdatamodel", "M 2.xcdatamodel"], in: directory)
        let error = #expect(throws: SluiceError.self) { try CoreDataBundle.contentsPath(of: path) }
        #expect(error?.kind == .usage)
        #expect(error?.message == "'\(path)' holds 2 versions (M 2.xcdatamodel, M.xcdatamodel) and no .xccurrentversion naming the current one")
    }

    @Test func aCurrentVersionThatIsNotThere() throws {
        let directory = TemporaryDirectory()
        let path = try bundle(["M.xcdatamodel"], in: directory)
        try Data(Self.currentVersion("Gone.xcdatamodel").utf8).write(to: URL(fileURLWithPath: path + "/.xccurrentversion"))
        let error = #expect(throws: SluiceError.self) { try CoreDataBundle.contentsPath(of: path) }
        #expect(error?.kind == .usage)
        #expect(error?.message == "'\(path)/.xccurrentversion' names \"Gone.xcdatamodel\", which is not a version in the bundle")
    }

    @Test func anEmptyBundle() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("M.xcdatamodeld")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let error = #expect(throws: SluiceError.self) { try CoreDataBundle.contentsPath(of: path) }
        #expect(error?.message == "'\(path)' holds no .xcdatamodel")
    }

    @Test func theCurrentVersionName() throws {
        #expect(try CoreDataBundle.currentVersionName(in: Array(Self.currentVersion("X.xcdatamodel").utf8), sourceName: "p")
            == "X.xcdatamodel")
        // Binary, as some tools save it: the same name.
        let binary = BinaryPropertyList.write(.dictionary([("_XCCurrentVersionName", .string("X.xcdatamodel"))]))
        #expect(try CoreDataBundle.currentVersionName(in: binary, sourceName: "p") == "X.xcdatamodel")
        let broken = #expect(throws: SluiceError.self) {
            try CoreDataBundle.currentVersionName(in: Array("bplist00\u{1}".utf8), sourceName: "p")
        }
        #expect(broken?.message == "'p' is not a binary property list: not a binary property list (no bplist00 header and trailer)")
        let missing = #expect(throws: SluiceError.self) {
            try CoreDataBundle.currentVersionName(in: Array("<plist><dict><key>other</key><string>x</string></dict></plist>".utf8),
                                                  sourceName: "p")
        }
        #expect(missing?.message == "'p' has no _XCCurrentVersionName")
    }

    @Test func aVersionFolderAndItsContentsFile() throws {
        let directory = TemporaryDirectory()
        let path = try bundle(["M.xcdatamodel"], in: directory) + "/M.xcdatamodel"
        #expect(try CoreDataBundle.contentsPath(of: path) == path + "/contents")
        #expect(try CoreDataBundle.contentsPath(of: path + "/contents") == path + "/contents")
    }

    @Test func aMissingModelCannotBeOpened() throws {
        let directory = TemporaryDirectory()
        let error = #expect(throws: SluiceError.self) { try ModelFile.load(path: directory.file("Nope.xcdatamodeld")) }
        #expect(error?.kind == .cannotOpenInput)
        #expect(error?.message == "cannot open model '\(directory.file("Nope.xcdatamodeld"))': No such file or directory")
    }

    @Test func aFileNamedLikeABundle() throws {
        let directory = TemporaryDirectory()
        try directory.write(Array("{}".utf8), to: "M.xcdatamodel")
        let error = #expect(throws: SluiceError.self) { try ModelFile.load(path: directory.file("M.xcdatamodel")) }
        #expect(error?.kind == .usage)
        #expect(error?.message == "'\(directory.file("M.xcdatamodel"))' is not a folder, as a Core Data model of that name is")
    }

    @Test func loadingABundleDigestsItsContents() throws {
        let directory = TemporaryDirectory()
        let path = try bundle(["M.xcdatamodel"], in: directory)
        let file = try ModelFile.load(path: path)
        #expect(file.path == path)
        #expect(file.model.entities.map(\.name) == ["A"])
        #expect(file.sha256 == SHA256.hex(of: Array(Self.contents.utf8)))
        #expect(file.notes.isEmpty)
        #expect(file.isCoreDataModel)
    }
}
