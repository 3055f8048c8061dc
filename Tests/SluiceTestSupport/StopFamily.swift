/// A family of entities (`docs/model.md#inheritance`) for the library's and the command's tests:
/// an abstract Stop with BusStop and RailStop, stored in `stops` with an `entity` column, and
/// routes linking to any of them.
public enum StopFamily {
    public static let model = """
        {
          "root": { "stops": "Stop", "buses": "BusStop", "routes": "Route" },
          "entities": {
            "Stop": {
              "table": "stops", "identity": "id", "abstract": true,
              "entityBy": { "key": "type", "values": { "bus": "BusStop", "rail": "RailStop" } },
              "attributes": { "id": "string", "name": "string" }
            },
            "BusStop": { "parent": "Stop", "attributes": { "shelter": "boolean" } },
            "RailStop": { "parent": "Stop", "attributes": { "platforms": { "type": "integer", "default": 1 } } },
            "Route": {
              "table": "routes", "identity": "id",
              "attributes": { "id": "string" },
              "relationships": {
                "first": { "entity": "Stop" },
                "stops": { "entity": "Stop", "toMany": true },
                "rails": { "entity": "RailStop", "toMany": true }
              }
            }
          }
        }
        """
}
