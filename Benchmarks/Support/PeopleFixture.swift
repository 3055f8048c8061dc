import Sluice

/// FastEasyMapping's classic benchmark: Person records, each with several Phone records
/// nested under `phones` (a to-many whose inverse is the phone's to-one `person`).
public enum PeopleFixture {
    /// `count` people with 2–5 phones each, as one JSON array.
    public static func json(people count: Int = 3_000) -> [UInt8] {
        var text = "["
        var phoneID = 0
        for person in 1...count {
            if person > 1 { text += ",\n" }
            text += #"{"id":\#(person),"name":"Person \#(person)","email":"person\#(person)@example.com","#
            text += #""gender":"\#(person % 2 == 0 ? "female" : "male")","phones":["#
            for phone in 0..<(2 + person % 4) {
                phoneID += 1
                if phone > 0 { text += "," }
                text += #"{"id":\#(phoneID),"ddi":"55","ddd":"\#(11 + phone)","number":"9\#(10_000_000 + phoneID)"}"#
            }
            text += "]}"
        }
        text += "]\n"
        return Array(text.utf8)
    }

    public static let modelText = """
        {
          "root": "Person",
          "entities": {
            "Person": {
              "identity": "personID",
              "attributes": {
                "personID": { "type": "integer", "key": "id" },
                "name": "string", "email": "string", "gender": "string"
              },
              "relationships": { "phones": { "entity": "Phone", "toMany": true, "inverse": "person" } }
            },
            "Phone": {
              "identity": "phoneID",
              "attributes": {
                "phoneID": { "type": "integer", "key": "id" },
                "ddi": "string", "ddd": "string", "number": "string"
              },
              "relationships": { "person": { "entity": "Person" } }
            }
          }
        }
        """

    public static func model() throws -> Model {
        try Model.parse(Array(modelText.utf8), sourceName: "people model")
    }
}
