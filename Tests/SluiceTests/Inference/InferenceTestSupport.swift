import Testing
@testable import Sluice

/// The inference suites, nested here so `swift test --filter Inference` selects them all.
@Suite enum InferenceTests {
    /// Infers a model from `json` (named `name`, which names the entity as a file name does).
    static func infer(_ json: String, name: String = "<memory>", entity: String? = nil, sample: Int = 1_000)
        throws -> ModelInference.Result
    {
        try ModelInference.infer(bytes: Array(json.utf8), name: name, options: .init(entity: entity, sampleSize: sample))
    }
}

extension Model {
    /// The type of `entity.attribute`, for short expectations.
    func type(_ entity: String, _ attribute: String) -> AttributeType? {
        self.entity(named: entity)?.attribute(named: attribute)?.type
    }

    func relationship(_ entity: String, _ name: String) -> Relationship? {
        self.entity(named: entity)?.relationships.first { $0.name == name }
    }
}
