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

        init(entity: String? = nil, path: JSONKeyPath? = nil, mapKey: String? = nil) {
            self.entity = entity
            self.path = path
            self.mapKey = mapKey
        }
    }

    /// Compiles `model`. Throws every problem found, each with its path: a `default` that does
    /// not convert, a bad `dateFormat`, records whose entity is unknown or not said.
    init(model: Model, locations: Locations = Locations(), sourceName: String = "model") throws(ModelError) {
        var problems: [ModelProblem] = []
        for entity in model.entities {
            let rootNode = keyNodes.count
            keyNodes.append(KeyNode())
            var attributes: [AttributePlan] = []
            for (index, attribute) in entity.attributes.enumerated() {
                let path = "entities.\(entity.name).attributes.\(attribute.name)"
                let converter: ValueConverter
                do {
                    converter = try ValueConverter(type: attribute.type, dateFormat: attribute.dateFormat)
                } catch {
                    problems.append(ModelProblem(path: "\(path).dateFormat", message: error.message))
                    continue
                }
                var defaultValue: ColumnValue?
                if let value = attribute.defaultValue {
                    do {
                        defaultValue = try converter.convert(value)
                    } catch {
                        problems.append(ModelProblem(path: "\(path).default", message: error.message))
                    }
                }
                attributes.append(AttributePlan(
                    name: attribute.name, column: attribute.column, type: attribute.type, converter: converter,
                    optional: attribute.optional, defaultValue: defaultValue, defaultWhenMissing: attribute.defaultWhenMissing))
                for (priority, keyPath) in attribute.keys.enumerated() {
                    let node = addKeyPath(keyPath, from: rootNode)
                    keyNodes[node].targets.append((attribute: index, priority: priority))
                    if attribute.type == .json { keyNodes[node].hasJSONTarget = true } else { keyNodes[node].hasScalarTarget = true }
                }
            }
            let identity = entity.identity.compactMap { name in attributes.firstIndex { $0.name == name } }
            entities.append(EntityPlan(name: entity.name, table: entity.table, attributes: attributes,
                                       identity: identity, rootNode: rootNode))
        }
        // Relationships once every entity has its index and attributes.
        for (entityIndex, entity) in model.entities.enumerated() {
            for (index, relationship) in entity.relationships.enumerated() {
                guard let target = self.entityIndex(named: relationship.entity) else { continue }
                let relatedBy = relatedBy(relationship, target: entities[target])
                let targetName = entities[target].name
                entities[entityIndex].relationships.append(RelationshipPlan(
                    name: relationship.name, target: target, toMany: relationship.toMany, relatedBy: relatedBy,
                    relatedByName: relatedBy.map { "\(targetName).\(entities[target].attributes[$0.attribute].name)" } ?? targetName,
                    mapAttribute: relationship.map.flatMap { name in entities[target].attributes.firstIndex { $0.name == name } }))
                for (priority, keyPath) in relationship.keys.enumerated() {
                    let node = addKeyPath(keyPath, from: entities[entityIndex].rootNode)
                    keyNodes[node].links.append((relationship: index, priority: priority))
                }
            }
        }

        if let name = locations.entity {
            if let entity = entityIndex(named: name) {
                var mapAttribute: Int?
                if let mapKey = locations.mapKey {
                    mapAttribute = entities[entity].attributes.firstIndex { $0.name == mapKey }
                    if mapAttribute == nil {
                        problems.append(ModelProblem(path: "--map-key", message: "\(ModelProblem.quote(mapKey)) is not an attribute of \(name)"
                            + NameSuggestion.didYouMean(mapKey, among: entities[entity].attributes.map(\.name))))
                    }
                }
                addLocation(locations.path ?? JSONKeyPath([]), entity: entity, mapAttribute: mapAttribute)
            } else {
                problems.append(ModelProblem(path: "--entity",
                                             message: NameSuggestion.unknownEntity(name, entities: model.entities.map(\.name))))
            }
        } else if locations.path != nil || locations.mapKey != nil {
            problems.append(ModelProblem(path: locations.path != nil ? "--path" : "--map-key",
                                         message: "needs --entity to say which entity the records are"))
        } else {
            table = model.rootTable
            switch model.root {
            case .entity(let name)?:
                if let entity = entityIndex(named: name) { addLocation(JSONKeyPath([]), entity: entity) }
            case .paths(let paths)?:
                for (path, name) in paths {
                    guard let entity = entityIndex(named: name) else { continue }
                    let mapAttribute = model.rootMaps[path].flatMap { map in entities[entity].attributes.firstIndex { $0.name == map } }
                    addLocation(path, entity: entity, mapAttribute: mapAttribute)
                }
            case nil:
                if entities.count == 1 {
                    addLocation(JSONKeyPath([]), entity: 0)
                } else {
                    problems.append(ModelProblem(
                        path: "root",
                        message: "the model has no root and \(entities.count) entities: say which entity the records are with --entity"))
                }
            }
        }
        if !problems.isEmpty {
            throw ModelError(source: sourceName, problems: problems)
        }
    }

    /// The attribute a bare id names: `relatedBy`, else the target's single identity.
    private func relatedBy(_ relationship: Model.Relationship, target: EntityPlan)
        -> (attribute: Int, converter: ValueConverter)?
    {
        let index: Int?
        if let name = relationship.relatedBy {
            index = target.attributes.firstIndex { $0.name == name }
        } else {
            index = target.identity.count == 1 ? target.identity[0] : nil
        }
        return index.map { ($0, target.attributes[$0].converter) }
    }

    private mutating func addKeyPath(_ path: JSONKeyPath, from root: Int) -> Int {
        var node = root
        for key in path.keys {
            if let child = keyNodes[node].children.lookup(key) {
                node = child
            } else {
                keyNodes.append(KeyNode())
                keyNodes[node].children.insert(key, node: keyNodes.count - 1)
                node = keyNodes.count - 1
            }
        }
        return node
    }

    private mutating func addLocation(_ path: JSONKeyPath, entity: Int, mapAttribute: Int? = nil) {
        var node = Self.rootLocation
        for key in path.keys {
            if let child = locationNodes[node].children.lookup(key) {
                node = child
            } else {
                locationNodes.append(LocationNode())
                locationNodes[node].children.insert(key, node: locationNodes.count - 1)
                node = locationNodes.count - 1
            }
        }
        locationNodes[node].entity = entity
        locationNodes[node].mapAttribute = mapAttribute
    }
}
