/// The three ways to name a Core Data model, and the `contents` XML file each one means:
///
/// * a `.xcdatamodeld` bundle: the version its `.xccurrentversion` property list names
///   (`_XCCurrentVersionName`), or else its only `.xcdatamodel`;
/// * a `.xcdatamodel` folder: its `contents`;
/// * the `contents` file of a `.xcdatamodel` itself, or that XML under any name (a file whose
///   root element is `<model>`, recognised by its first bytes).
enum CoreDataBundle {
    /// Whether `path` names a Core Data model: by its name, or a file's first bytes.
    static func names(_ path: String) -> Bool {
        let path = trimmed(path)
        if path.hasSuffix(".xcdatamodeld") || path.hasSuffix(".xcdatamodel") { return true }
        let parts = path.split(separator: "/")
        return parts.count >= 2 && parts[parts.count - 1] == "contents" && parts[parts.count - 2].hasSuffix(".xcdatamodel")
            || isModelXML(path)
    }

    /// Whether the file at `path` is XML whose root element is `<model>`, as a `.xcdatamodel`'s
    /// `contents` is: what follows a byte-order mark, the XML declaration, comments and a
    /// doctype in its first 4 KiB. A model file of Sluice's (JSON) never begins with `<`.
    static func isModelXML(_ path: String) -> Bool {
        guard SystemCalls.status(ofPath: path)?.isRegularFile == true, let source = try? FileSource(path: path, role: "model")
        else { return false }
        var reader = ChunkReader(source: source, chunkSize: 4096)
        guard let chunk = try? reader.next() else { return false }
        var rest = Substring(decoding: chunk, as: UTF8.self).drop { $0 == "\u{FEFF}" }
        while true {
            rest = rest.drop { $0.isWhitespace }
            // The end of a declaration, a comment or a doctype, whichever begins here.
            let skipped: String? = rest.hasPrefix("<?") ? "?>" : rest.hasPrefix("<!--") ? "-->" : rest.hasPrefix("<!") ? ">" : nil
            guard let end = skipped else { break }
            guard let close = rest.firstRange(of: end) else { return false }
            rest = rest[close.upperBound...]
        }
        guard rest.hasPrefix("<model") else { return false }
        return rest.dropFirst("<model".count).first.map { $0.isWhitespace || $0 == ">" || $0 == "/" } ?? false
    }

    /// The path of the `contents` file that `path` means.
    static func contentsPath(of path: String) throws(SluiceError) -> String {
        let path = trimmed(path)
        if path.hasSuffix(".xcdatamodeld") { return try contents(ofVersion: folder(currentVersion(in: path))) }
        if path.hasSuffix(".xcdatamodel") { return try contents(ofVersion: folder(path)) }
        return path
    }

    /// The `contents` of the `.xcdatamodel` folder `version`. A folder holding Xcode 3's
    /// `elements` instead (a keyed archive of Xcode's own editor classes, not the model) is
    /// refused with the way out: Xcode saves it as `contents` when it opens it.
    private static func contents(ofVersion version: String) throws(SluiceError) -> String {
        let contents = version + "/contents"
        if SystemCalls.status(ofPath: contents) == nil, SystemCalls.status(ofPath: version + "/elements")?.isRegularFile == true {
            throw SluiceError(.usage, "'\(version)' is a model of Xcode 3 (an 'elements' file, no 'contents'), which Sluice does "
                                + "not read: open the model in Xcode and save it, which writes its 'contents'")
        }
        return contents
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

    /// `_XCCurrentVersionName` of a property list (XML as Xcode writes it, or binary).
    static func currentVersionName(in bytes: [UInt8], sourceName: String) throws(SluiceError) -> String {
        guard let name = try PropertyList.read(bytes, sourceName: sourceName)["_XCCurrentVersionName"]?.string else {
            throw SluiceError(.usage, "'\(sourceName)' has no _XCCurrentVersionName")
        }
        return name
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
