extension CoreDataModel {
    /// The Core Data model `path` names (`CoreDataBundle`: a `.xcdatamodeld`'s current
    /// version, a `.xcdatamodel`, or its `contents`), as read for Core Data's own store; the
    /// notes about what an import in Sluice's layout skips are not kept.
    static func read(path: String) throws -> CoreDataModel {
        let contents = try CoreDataBundle.contentsPath(of: path)
        return try read(CoreDataBundle.bytes(of: contents), contentsName: contents, sourceName: path)
    }

    static func read(_ bytes: [UInt8], contentsName: String, sourceName: String) throws -> CoreDataModel {
        var notes = ModelProblemCollector()
        return try CoreDataModel(try XMLTree.parse(bytes, sourceName: contentsName), sourceName: sourceName, notes: &notes)
    }
}
