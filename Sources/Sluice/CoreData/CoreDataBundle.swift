/// The three ways to name a Core Data model, and the `contents` XML file each one means:
///
/// * a `.xcdatamodeld` bundle: the version its `.xccurrentversion` property list names
///   (`_XCCurrentVersionName`), or else its only `.xcdatamodel`;
/// * a `.xcdatamodel` folder: its `contents`;
/// * the `contents` file of a `.xcdatamodel` itself.
enum CoreDataBundle {
    /// Whether `path` names a Core Data model, by its name alone (the file may not exist).
    static func names(_ path: String) -> Bool {
        let path = trimmed(path)
        if path.hasSuffix(".xcdatamodeld") || path.hasSuffix(".xcdatamodel") { return true }
        let parts = path.split(separator: "/")
        return parts.count >= 2 && parts[parts.count - 1] == "contents" && parts[parts.count - 2].hasSuffix(".xcdatamodel")
    }

    /// The path of the `contents` file that `path` means.
    static func contentsPath(of path: String) throws(SluiceError) -> String {
        let path = trimmed(path)
        if path.hasSuffix(".xcdatamodeld") { return try folder(currentVersion(in: path)) + "/contents" }
        if path.hasSuffix(".xcdatamodel") { return try folder(path) + "/contents" }
        return path
    }

    /// The versions (`.xcdatamodel` folders) of the bundle `path` is, or is a version of, but the
    /// one `path` means, in name order; empty for a model outside a bundle.
    static func otherVersions(of path: String) -> [String] {
        let path = trimmed(path)
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let bundle = path.hasSuffix(".xcdatamodeld") ? path
            : parts.dropLast(path.hasSuffix("/contents") ? 2 : 1).joined(separator: "/")
        guard bundle.hasSuffix(".xcdatamodeld"), let current = try? contentsPath(of: path) else { return [] }
        return SystemCalls.fileNames(inDirectory: bundle).filter { $0.hasSuffix(".xcdatamodel") }.sorted()
            .map { bundle + "/" + $0 }
            .filter { (try? contentsPath(of: $0)) != current }
    }

    /// The current version's folder in a `.xcdatamodeld`.
    private static func currentVersion(in bundle: String) throws(SluiceError) -> String {
        let marker = try folder(bundle) + "/.xccurrentversion"
        if SystemCalls.status(ofPath: marker)?.isRegularFile == true {
            let name = try currentVersionName(in: try bytes(of: marker), sourceName: marker)
            guard !name.contains("/"), SystemCalls.status(ofPath: bundle + "/" + name)?.isDirectory == true else {
                throw SluiceError(.usage, "'\(marker)' names \(ModelProblem.quote(name)), which is not a version in the bundle")
            }
            return bundle + "/" + name
        }
        let versions = SystemCalls.fileNames(inDirectory: bundle).filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        switch versions.count {
        case 1:
            return bundle + "/" + versions[0]
        case 0:
            throw SluiceError(.usage, "'\(bundle)' holds no .xcdatamodel")
        default:
            throw SluiceError(.usage, "'\(bundle)' holds \(versions.count) versions (\(versions.joined(separator: ", "))) "
                                + "and no .xccurrentversion naming the current one")
        }
    }

    /// `_XCCurrentVersionName` of an XML property list: the `<string>` after that `<key>` in
    /// the top-level `<dict>`.
    static func currentVersionName(in bytes: [UInt8], sourceName: String) throws(SluiceError) -> String {
        guard !bytes.starts(with: Array("bplist".utf8)) else {
            throw SluiceError(.usage, "'\(sourceName)' is a binary property list; Sluice reads XML property lists")
        }
        let plist = try XMLTree.parse(bytes, sourceName: sourceName)
        let members = plist.name == "plist" ? plist.children.first { $0.name == "dict" }?.children ?? [] : []
        for (index, member) in members.enumerated().dropLast()
        where member.name == "key" && member.text == "_XCCurrentVersionName" && members[index + 1].name == "string" {
            return members[index + 1].text
        }
        throw SluiceError(.usage, "'\(sourceName)' has no _XCCurrentVersionName")
    }

    /// `path`, which must be a folder.
    private static func folder(_ path: String) throws(SluiceError) -> String {
        guard let status = SystemCalls.status(ofPath: path) else {
            throw FileSource.cannotOpen("model", path, errno: SystemCalls.errno)
        }
        guard status.isDirectory else {
            throw SluiceError(.usage, "'\(path)' is not a folder, as a Core Data model of that name is")
        }
        return path
    }

    /// The whole file.
    static func bytes(of path: String) throws(SluiceError) -> [UInt8] {
        var reader = ChunkReader(source: try FileSource(path: path, role: "model"), chunkSize: 1 << 16)
        var bytes: [UInt8] = []
        while let chunk = try reader.next() { bytes.append(contentsOf: chunk) }
        return bytes
    }

    /// Without the trailing slashes a shell's completion adds to a folder.
    private static func trimmed(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}
