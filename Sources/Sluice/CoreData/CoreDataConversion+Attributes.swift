/// An attribute as converted, with the place of the default it got (a note may drop it).
struct ConvertedAttribute {
    var attribute: Model.Attribute
    var defaultLocation: ModelLocation?
}

extension CoreDataConversion {
    /// Core Data's attribute types and the Sluice type each is imported as.
    static let attributeTypes: [String: AttributeType] = [
        "Integer 16": .integer, "Integer 32": .integer, "Integer 64": .integer,
        "Decimal": .decimal, "Double": .double, "Float": .double,
        "String": .string, "URI": .string, "Boolean": .boolean, "Date": .date,
        "Binary": .binary, "UUID": .uuid, "Transformable": .json,
    ]

    /// The width of Integer 16 and 32, the attribute's `bits`: values and defaults beyond it
    /// are refused, as Core Data cannot hold them.
    static let integerBits: [String: Int] = ["Integer 16": 16, "Integer 32": 32]

    /// The attribute as Sluice imports it; nil (with a note) when its type has no equivalent.
    mutating func convert(_ source: CoreDataModel.Attribute) -> ConvertedAttribute? {
        guard let typeField = source.attributeType else {
            notes.report("no attributeType: the attribute is not imported", at: source.location)
            return nil
        }
        guard let type = Self.attributeTypes[typeField.value] else {
            notes.report("unsupported type \(ModelProblem.quote(typeField.value)): the attribute is not imported",
                         at: typeField.location)
            return nil
        }
        var attribute = Model.Attribute(name: source.name, type: type, keys: keys(of: source.name, in: source.userInfo),
                                        optional: source.isOptional, bits: Self.integerBits[typeField.value])
        if typeField.value == "Transformable", let name = source.valueTransformerName, !KeyedArchive.defaultTransformers.contains(name) {
            attribute.customTransformer = name
        }
        for entry in source.userInfo where !Self.isKeyMapping(entry.key) {
            switch entry.key {
            case "dateFormat":
                attribute.dateFormat = dateFormat(entry, type: type)
            case "useDefaultValueWhenNotPresent":
                attribute.defaultWhenMissing = Self.boolValue(entry.value)
            case "attributeValueClassName":
                notes.report("not supported: the value is stored as JSON text, not converted to an object of a class",
                             at: entry.location)
            default:
                noteUnsupported(entry)
            }
        }
        // A Date's default is `defaultDateTimeInterval`; every other type's `defaultValueString`.
        let interval = type == .date ? source.defaultDateTimeInterval : nil
        let defaultField = interval ?? source.defaultValueString
        if let defaultField {
            attribute.defaultValue = defaultValue(defaultField, of: attribute, isInterval: interval != nil)
        }
        return ConvertedAttribute(attribute: attribute, defaultLocation: attribute.defaultValue == nil ? nil : defaultField?.location)
    }

    /// A `dateFormat` the date conversion can compile; otherwise a note, and ISO 8601.
    private mutating func dateFormat(_ entry: CoreDataModel.UserInfoEntry, type: AttributeType) -> String? {
        guard type == .date else {
            notes.report("not used: only Date attributes take a dateFormat", at: entry.location)
            return nil
        }
        do {
            _ = try DateInput(dateFormat: entry.value)
            return entry.value
        } catch {
            notes.report("\(error.message); the attribute reads ISO 8601 dates instead", at: entry.location)
            return nil
        }
    }

    /// The default as a model file writes it, converted the way an import converts it; nil
    /// (with a note) when it does not convert.
    private mutating func defaultValue(_ field: CoreDataModel.Field, of attribute: Model.Attribute,
                                       isInterval: Bool) -> JSONValue?
    {
        do {
            let converter = try ValueConverter(type: attribute.type, dateFormat: attribute.dateFormat, bits: attribute.bits)
            let value = isInterval ? try dateDefault(interval: field.value, converter: converter)
                : try Self.jsonValue(of: field.value, type: attribute.type)
            _ = try converter.convert(value)
            return value
        } catch {
            notes.report("not used: \(error.message)", at: field.location)
            return nil
        }
    }

    /// `defaultValueString` in the JSON form its type reads best: numbers and booleans as JSON
    /// numbers and booleans (Core Data writes `YES`/`NO`), everything else as a string.
    private static func jsonValue(of text: String, type: AttributeType) throws(ConversionError) -> JSONValue {
        switch type {
        case .integer, .double, .decimal:
            // JSON number text: what the converter accepts as a numeric string.
            _ = try ValueConverter(type: type).convert(JSONValue.string(text))
            return .number(text)
        case .boolean:
            return .bool(try ValueConverter(type: .boolean).convert(JSONValue.string(text)) == .integer(1))
        default:
            return .string(text)
        }
    }

    /// A Date default, seconds since 2001: an ISO 8601 string when the attribute reads those,
    /// else Unix seconds (milliseconds for `unix-ms`), every digit kept: the reference date's
    /// seconds are added to the digits, not to a double.
    private func dateDefault(interval text: String, converter: ValueConverter) throws(ConversionError) -> JSONValue {
        let interval = Array(text.utf8).withUnsafeBytes { bytes in
            NumberText(bytes).flatMap { Instant(unix: $0, in: bytes, milliseconds: false) }
        }
        guard var instant = interval else { throw ConversionError("\(ModelProblem.quote(text)) is not a number of seconds") }
        instant.seconds += Instant.coreDataReferenceSeconds
        guard instant.isWithinCivilRange else { throw ConversionError("\(ModelProblem.quote(text)) is outside the years 0000…9999") }
        let seconds = instant.unixSecondsText
        switch converter.dateInput {
        case .iso8601:
            let iso = try converter.convert(JSONValue.number(seconds))
            guard case .text(let text) = iso else { throw ConversionError("not a date") }
            return .string(text)
        case .unixMilliseconds:
            let perMillisecond = Instant.attosecondsPerSecond / 1000
            let milliseconds = Instant(seconds: instant.seconds * 1000 + Int64(instant.attoseconds / perMillisecond),
                                       attoseconds: instant.attoseconds % perMillisecond * 1000)
            return .number(milliseconds.unixSecondsText)
        case .unixSeconds, .pattern:
            return .number(seconds)
        }
    }

    // MARK: Keys

    /// `mappedKeyName`, then its fallbacks `mappedKeyName.1` … `mappedKeyName.9` in order,
    /// stopping at the first one missing as MagicalRecord does; without `mappedKeyName`, the
    /// property's own name comes first.
    mutating func keys(of name: String, in userInfo: [CoreDataModel.UserInfoEntry]) -> [JSONKeyPath] {
        var texts: [String] = [userInfo["mappedKeyName"]?.value ?? name]
        var gap: Int?
        for number in 1...9 {
            guard let entry = userInfo["mappedKeyName.\(number)"] else {
                gap = gap ?? number
                continue
            }
            if let gap {
                notes.report("not read: mappedKeyName.\(gap) is missing, and the fallbacks stop there", at: entry.location)
            } else {
                texts.append(entry.value)
            }
        }
        for entry in userInfo where entry.key.hasPrefix("mappedKeyName.") && !isFallback(entry.key) {
            notes.report("not read: the fallbacks are mappedKeyName.1 to mappedKeyName.9", at: entry.location)
        }
        var paths: [JSONKeyPath] = []
        for (index, text) in texts.enumerated() {
            let path = JSONKeyPath(parsing: text)
            if !path.keys.isEmpty, !path.keys.contains(where: \.isEmpty) {
                paths.append(path)
            } else if let entry = userInfo[index == 0 ? "mappedKeyName" : "mappedKeyName.\(index)"] {
                notes.report("not read: \(ModelProblem.quote(text)) is not a key path", at: entry.location)
            }
        }
        return paths.isEmpty ? [JSONKeyPath(parsing: name)] : paths
    }

    /// The keys `keys(of:in:)` reads or notes: `mappedKeyName` and `mappedKeyName.…`.
    static func isKeyMapping(_ key: String) -> Bool {
        key == "mappedKeyName" || key.hasPrefix("mappedKeyName.")
    }

    /// `mappedKeyName.1` … `mappedKeyName.9`.
    private func isFallback(_ key: String) -> Bool {
        (1...9).contains { key == "mappedKeyName.\($0)" }
    }

    /// `-[NSString boolValue]`, which MagicalRecord applies to `useDefaultValueWhenNotPresent`:
    /// true when the text starts (after spaces, a sign and zeros) with Y, y, T, t or 1–9.
    static func boolValue(_ text: String) -> Bool {
        var rest = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        rest = rest.drop { $0 == "0" }
        guard let first = rest.first else { return false }
        return "YyTt123456789".contains(first)
    }
}
