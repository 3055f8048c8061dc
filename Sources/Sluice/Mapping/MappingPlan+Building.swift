extension MappingPlan {
    /// Where the records of an import are, when the command line says it instead of the model.
    struct Locations {
        /// `--entity`: overrides the model's `root`.
        var entity: String?
        /// `--path`: the key path of the records inside an envelope (needs an entity).
        var path: JSONKeyPath?
        /// `--map-key`: the records are the members of an object used as a map, and each
        /// member's name goes to this attribute (needs an entity).
        var mapKey: String?
        /// `--root KEY=ENTITY`: added to (or overriding) the model's `root`.
        var roots: [Model.RootOverride]
        /// How problems name these (`ImportOptions.optionNames`).
        var names: OptionNames

        init(entity: String? = nil, path: JSONKeyPath? = nil, mapKey: String? = nil, roots: [Model.RootOverride] = [],
             names: OptionNames = .library) {
            self.entity = entity
            self.path = path
            self.mapKey = mapKey
            self.roots = roots
            self.names = names
        }
    }

    /// Compiles `model`. Throws every problem found, each with its path: a `default` that does
    /// not convert, a bad `dateFormat`, records whose entity is unknown or not said.
    /// `rawAttributes` (`Entity.attribute`) are read as raw JSON text whatever their type, for a
    /// hook that converts them itself (`EntityHooks.attributes`); `rawRelationships` the same for
    /// relationships (`EntityHooks.relationships`), read into `EntityPlan.rawLinks` instead of
    /// being linked. `values`: how the store's layout keeps values (`StoreValues`).
    init(model: Model, locations: Locations = Locations(), sourceName: String = "model",
         rawAttributes: Set<String> = [], rawRelationships: Set<String> = [], values: StoreValues = .sluice) throws(ModelError) {
        var problems: [ModelProblem] = []
        if let problem = Self.lineageProblem(model) {
            throw ModelError(source: sourceName, problems: [problem])
        }
        let storage = model.storageModel
        storageModel = storage
        // A family's root first, in the order of the storage entities, then the other members.
        let members = storage.entities.compactMap { model.entity(named: $0.name) }
            + model.entities.filter { storage.entity(named: $0.name) == nil }
        storeValues = values
        var compiler = AttributeCompiler(matched: AttributeCompiler.matchedDeclarations(in: model), encoding: values.encoding)
        for entity in members {
            let stored = storage.position(ofEntity: model.familyRoot(of: entity.name))!
            shapes.append(buildShape(entity, storage: stored, model: model, compiler: &compiler,
                                     rawAttributes: rawAttributes))
            if shapeIndexes[entity.name] == nil { shapeIndexes[entity.name] = shapes.count - 1 }
        }
        problems += compiler.problems
        // Relationships once every shape has its index and attributes.
        for (shapeIndex, entity) in members.enumerated() {
            buildRelationships(of: entity, shape: shapeIndex, model: model, rawRelationships: rawRelationships)
        }
        if !rawRelationships.isEmpty {
            addRawLinks(model: model, rawRelationships: rawRelationships)
        }
        for (index, stored) in storage.entities.enumerated() {
            var plan = shapes[index]
            plan.table = stored.table
            plan.attributes.removeLast(plan.rawLinks.count)
            for (relationship, mapped) in plan.relationships.enumerated() {
                plan.relationships[relationship].target = shapes[mapped.target].storage
            }
            if model.hasDescendants(stored.name) {
                // The mapping fills the `"entity"` column of every record; a default declared
                // below the root is applied by the mapping too (`buildShape`).
                plan.attributes[0].defaultValue = nil
                plan.attributes[0].defaultWhenMissing = false
            }
            plan.attributeMembers = []
            plan.relationshipMembers = []
            plan.entityBy = nil
            entities.append(plan)
        }

        if let name = locations.entity {
            if let entity = shapeIndex(named: name) {
                var mapAttribute: Int?
                if let mapKey = locations.mapKey {
                    mapAttribute = shapes[entity].attributes.firstIndex { $0.name == mapKey }
                    if mapAttribute == nil {
                        problems.append(ModelProblem(path: locations.names(.mapKey), message: "\(ModelProblem.quote(mapKey)) is not an attribute of \(name)"
                            + NameSuggestion.didYouMean(mapKey, among: shapes[entity].attributes.map(\.name))))
                    }
                }
                addLocation(locations.path ?? JSONKeyPath([]), entity: entity, mapAttribute: mapAttribute)
            } else {
                problems.append(ModelProblem(path: locations.names(.entity),
                                             message: NameSuggestion.unknownEntity(name, entities: model.entities.map(\.name))))
            }
        } else if locations.path != nil || locations.mapKey != nil {
            problems.append(ModelProblem(path: locations.names(locations.path != nil ? .path : .mapKey),
                                         message: "needs \(locations.names(.entity)) to say which entity the records are"))
        } else {
            for override in locations.roots where shapeIndex(named: override.entity) == nil {
                problems.append(ModelProblem(path: locations.names.root("\(override.key)=\(override.entity)", quoted: false),
                                             message: NameSuggestion.unknownEntity(override.entity, entities: model.entities.map(\.name))))
            }
            let model = model.addingRoots(locations.roots)
            table = model.rootTable
            switch model.root {
            case .entity(let name)?:
                if let entity = shapeIndex(named: name) { addLocation(JSONKeyPath([]), entity: entity) }
            case .paths(let paths)?:
                for (path, name) in paths {
                    guard let entity = shapeIndex(named: name) else { continue }
                    let mapAttribute = model.rootMaps[path].flatMap { map in shapes[entity].attributes.firstIndex { $0.name == map } }
                    addLocation(path, entity: entity, mapAttribute: mapAttribute)
                }
            case nil:
                if model.entities.count == 1 {
                    addLocation(JSONKeyPath([]), entity: 0)
                } else {
                    let roots = locations.names == .commandLine ? "--root KEY=ENTITY" : "ImportOptions.roots"
                    problems.append(ModelProblem(
                        path: "root",
                        message: "the model has no root and \(model.entities.count) entities: say which entity the records are "
                            + "with \(locations.names(.entity)), or each key's (or file's) with \(roots)"))
                }
            }
        }
        if !problems.isEmpty {
            throw ModelError(source: sourceName, problems: problems)
        }
    }

    /// The attribute a bare id names: `relatedBy`, else the target's single identity.
    func relatedBy(_ relationship: Model.Relationship, target: EntityPlan)
        -> (attribute: Int, converter: ValueConverter)?
    {
        let index: Int?
        if let name = relationship.relatedBy {
            index = target.attributes.firstIndex { $0.name == name }
        } else {
            // An identity through a to-one is not one attribute a bare id could name.
            index = target.identity.count == 1 && target.identityRelationships.isEmpty ? target.identity[0] : nil
        }
        return index.map { ($0, target.attributes[$0].converter) }
    }

    mutating func addKeyPath(_ path: JSONKeyPath, from root: Int) -> Int {
        Self.add(path, to: &keyNodes, from: root)
    }

    /// The node of `nodes` at `path` below `root`, made with the nodes on the way if missing.
    private static func add<Node: TrieNode>(_ path: JSONKeyPath, to nodes: inout [Node], from root: Int) -> Int {
        var node = root
        for key in path.keys {
            if let child = nodes[node].children.lookup(key) {
                node = child
            } else {
                nodes.append(Node())
                nodes[node].children.insert(key, node: nodes.count - 1)
                node = nodes.count - 1
            }
        }
        return node
    }

    private mutating func addLocation(_ path: JSONKeyPath, entity: Int, mapAttribute: Int? = nil) {
        let node = Self.add(path, to: &locationNodes, from: Self.rootLocation)
        locationNodes[node].entity = entity
        locationNodes[node].mapAttribute = mapAttribute
    }
}
