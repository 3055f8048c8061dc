/// What `sluice infer` learned about the objects at one place of the input: the top-level
/// records, or the objects under one key of another place (as values or as array elements).
/// One shape per place, however many objects stand there; `SampleReader` fills it.
struct ObjectShape {
    /// The key this place is under; nil for the top-level records.
    let sourceKey: String?
    /// The shape of the objects holding this place; nil for the top-level records.
    let parent: Int?
    /// Objects nested around this place (0 for the top-level records).
    let depth: Int
    /// The entity name the identity candidates are matched against, normalised
    /// (`IdentityCandidate.normalise`): `stoptime` for `stop_times`.
    let identityBase: String
    /// Objects analysed here (at most the sample size; later ones are only counted where
    /// they stand).
    var records = 0
    /// The keys in the order they first appeared.
    var keys: [KeyStatistics] = []
    private var keyIndex: [String: Int] = [:]
    /// Distinct keys beyond `maxKeys`, not analysed (an object used as a map, not a record).
    var droppedKeys = 0
    /// For each pair of a reference-like and a sequence-like key (`trip_id`, `stop_sequence`)
    /// held together by a record: the distinct pairs and how many records held one. A
    /// composite identity candidate (see `CompositeIdentity`).
    var pairs: [KeyPair: PairValues] = [:]
    /// For a nested place, per sequence-like key (`stop_sequence` of stop times nested in
    /// their trip): the distinct (parent object, value) pairs and how many objects held one.
    /// A key unique within each parent is a natural identity with the parent.
    var sequencesInParent: [Int: PairValues] = [:]

    struct KeyPair: Hashable {
        var reference: Int
        var sequence: Int
    }

    struct PairValues {
        var distinct: Set<String> = []
        var count = 0
    }

    /// More distinct keys than SQLite has columns (2000 by default) is a map, not a record.
    static let maxKeys = 2_000

    init(sourceKey: String?, parent: Int?, depth: Int, identityBase: String) {
        self.sourceKey = sourceKey
        self.parent = parent
        self.depth = depth
        self.identityBase = identityBase
    }

    /// The statistics of `key`, added when new; nil when the shape already holds `maxKeys`.
    mutating func keyNumber(_ key: String) -> Int? {
        if let number = keyIndex[key] { return number }
        guard keys.count < Self.maxKeys else {
            droppedKeys += 1
            return nil
        }
        keys.append(KeyStatistics(key: key, identityRank: IdentityCandidate.rank(of: key, base: identityBase),
                                  compositeRole: CompositeIdentity.role(of: key)))
        keyIndex[key] = keys.count - 1
        return keys.count - 1
    }

    func statistics(of key: String) -> KeyStatistics? {
        keyIndex[key].map { keys[$0] }
    }
}

/// What one key held across the sampled objects of one place.
struct KeyStatistics {
    let key: String
    /// Objects holding the key.
    var present = 0
    /// The values at the key.
    var values = ValueKinds()
    /// The elements of the arrays at the key.
    var elements = ValueKinds()
    /// The shape of the objects at the key (values or array elements).
    var child: Int?
    /// Objects at the key were nested too deep to analyse: they can only be `json`.
    var tooDeep = false

    /// How good an identity this key's name makes (`IdentityCandidate.rank`); nil when it
    /// is not id-like, and then its values are not remembered.
    let identityRank: Int?
    /// For an id-like key: each distinct value (as text, `"42"` and `42` alike, as an
    /// identity compares them once converted) and how many values were seen.
    var identityValues: Set<String> = []
    var identityCount = 0
    /// A value an identity cannot be: null, a boolean, a real, an object or an array.
    var identityRefused = false

    /// What the key could be in a composite identity, by name.
    let compositeRole: CompositeIdentity.Role?

    init(key: String, identityRank: Int?, compositeRole: CompositeIdentity.Role? = nil) {
        self.key = key
        self.identityRank = identityRank
        self.compositeRole = compositeRole
    }
}

/// Which keys are id-like, by name: `id`, `<entity>_id`, `<entity>Id`, `uuid`, `guid`
/// (any case, `_`, `-` and spaces ignored: `stop_id`, `stopId` and `StopID` are alike).
enum IdentityCandidate {
    /// 0 is the best. nil when the name is not id-like for an entity named `base`.
    static func rank(of key: String, base: String) -> Int? {
        let name = normalise(key)
        switch name {
        case "id": return 0
        case base + "id": return 1
        case "uuid": return 2
        case base + "uuid": return 3
        case "guid": return 4
        default: return nil
        }
    }

    /// Lowercased, without `_`, `-`, `.` and spaces: the form names are compared in.
    static func normalise(_ name: String) -> String {
        String(name.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " && $0 != "." })
    }
}

/// A child record numbered within its parent (a stop time: `trip_id` and `stop_sequence`)
/// has no id of its own, but the parent's id and its number are one. The candidates, by
/// name: a reference (`trip_id`, `tripId`) and a sequence number (`stop_sequence`, `seq`,
/// `index`, `position`). `ModelDesigner` uses a pair only when the reference became a
/// relationship by id and the pair is unique in every sampled record.
enum CompositeIdentity {
    enum Role { case reference, sequence }

    static func role(of key: String) -> Role? {
        if InferenceNaming.referenceName(fromKey: key) != nil { return .reference }
        let name = IdentityCandidate.normalise(key)
        for suffix in ["sequence", "seq", "index", "position"] where name.hasSuffix(suffix) { return .sequence }
        return nil
    }
}
