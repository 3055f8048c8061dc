extension Model {
    /// One `--root KEY=ENTITY` (`ImportOptions.roots`): the records under the top-level key
    /// path `key`, or in a file or zip entry of that name, are of `entity`.
    public struct RootOverride: Sendable, Equatable {
        /// A key path as the model's `root` spells it (`stops`, `data.items`, `stops.txt`).
        public var key: String
        /// The entity of the records there.
        public var entity: String

        /// The override `--root key=entity`.
        public init(key: String, entity: String) {
            self.key = key
            self.entity = entity
        }

        /// `KEY=ENTITY`, split at the last `=` (a key may hold one; an entity name never
        /// does); nil when either side is empty.
        public init?(parsing text: String) {
            guard let equals = text.lastIndex(of: "=") else { return nil }
            let key = String(text[..<equals]), entity = String(text[text.index(after: equals)...])
            guard !key.isEmpty, !entity.isEmpty else { return nil }
            self.init(key: key, entity: entity)
        }

        /// The key as a key path: split at dots as the model's `root` keys are, so `stops.txt`
        /// on the command line and in the model are the same location.
        var path: JSONKeyPath { JSONKeyPath(parsing: key) }

        /// A key path with no empty key (`a..b`, `.a`, `a.` are not).
        var hasValidKey: Bool { !path.keys.isEmpty && !path.keys.contains(where: \.isEmpty) }
    }

    /// This model with `overrides` added to its `root` (`docs/cli.md`, `--root`): a key the
    /// root already maps takes the new entity, and is then a plain location (no `map`, no
    /// `header`); another key is added after the root's own. A root that names the entity of the
    /// top-level records (or no root) is replaced: the top-level value holds the keys instead.
    /// Pure: entity names are checked where the import's locations are (`MappingPlan`).
    public func addingRoots(_ overrides: [RootOverride]) -> Model {
        guard !overrides.isEmpty else { return self }
        var model = self
        var paths: [(path: JSONKeyPath, entity: String)] = []
        if case .paths(let existing)? = root {
            paths = existing
        } else {
            model.rootMaps = [:]
            model.rootTable = nil
        }
        // Each path's index, so that thousands of overrides (a zip's files) cost one lookup each.
        var indexes: [JSONKeyPath: Int] = [:]
        for (index, entry) in paths.enumerated() where indexes[entry.path] == nil { indexes[entry.path] = index }
        for override in overrides {
            let path = override.path
            if let index = indexes[path] {
                paths[index].entity = override.entity
            } else {
                indexes[path] = paths.count
                paths.append((path, override.entity))
            }
            model.rootMaps[path] = nil
            if model.rootTable?.path == path { model.rootTable = nil }
        }
        model.root = .paths(paths)
        return model
    }
}
