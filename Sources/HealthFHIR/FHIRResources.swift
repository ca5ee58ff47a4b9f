import HealthModel

/// The FHIR R4 (4.0.1) resources, as JSON text: Observations from `ExportRecord`s, Devices from sources, the
/// Patient from `me`. Ids are stable: a hash (`StableHasher`) of what identifies the row (the sample's
/// `identity`, the day and type, the source's name), so the same row gets the same id next night and a
/// server's upserts line up.
package struct FHIRResources {
    /// `Patient/<id>` for `subject`, nil without a Patient (`--no-patient`).
    let patientReference: String?

    static let ucum = "http://unitsofmeasure.org"
    static let categorySystem = "http://terminology.hl7.org/CodeSystem/observation-category"

    /// `hk-` and 16 hex digits of the parts' hash: FHIR's id is `[A-Za-z0-9\-\.]{1,64}`.
    package static func id(_ parts: [String], identity: Int64? = nil) -> String {
        var hasher = StableHasher()
        for part in parts { hasher.combine(part) }
        if let identity { hasher.combine(identity) }
        let hex = String(UInt64(bitPattern: hasher.finish()), radix: 16)
        return "hk-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    package static func deviceID(source: String) -> String { id(["Device", source]) }

    /// The Observation of a record, with its id; nil for a value that is not a finite number.
    func observation(_ record: ExportRecord) -> (id: String, json: String)? {
        var object = JSONObjectText()
        let id: String
        switch record {
        case .daily(let mapping, let date, let value, let sources):
            guard value.isFinite else { return nil }
            id = Self.id(["Observation", "daily", mapping.type, date])
            let code = mapping.dailyCode
            header(&object, id: id, category: mapping.category)
            object.raw(
                "code",
                Self.concept(
                    system: mapping.system, code: code?.code ?? mapping.code, display: code?.display ?? mapping.display)
            )
            subject(&object)
            object.raw("effectivePeriod", Self.period(start: date, end: date))
            object.raw(
                "valueQuantity",
                Self.quantity(
                    value * mapping.factor, unit: code?.unitDisplay ?? mapping.unitDisplay,
                    code: code?.unit ?? mapping.unit))
            if mapping.daily == .average {
                object.raw("method", Self.text("mean of the day's readings"))
            }
            device(&object, sources: sources)
        case .reading(let mapping, let identity, let source, let start, let end, let value):
            guard value.isFinite else { return nil }
            id = Self.id(["Observation", mapping.type], identity: identity)
            header(&object, id: id, category: mapping.category)
            object.raw("code", Self.concept(system: mapping.system, code: mapping.code, display: mapping.display))
            subject(&object)
            effective(&object, start: start, end: end)
            object.raw(
                "valueQuantity", Self.quantity(value * mapping.factor, unit: mapping.unitDisplay, code: mapping.unit))
            device(&object, sources: source)
        case .night(let date, let stages, let sources):
            id = Self.id(["Observation", "night", FHIRMapping.sleepType, date])
            header(&object, id: id, category: nil)
            object.raw(
                "code",
                Self.concept(
                    system: FHIRMapping.loinc, code: FHIRMapping.sleepDuration.code,
                    display: FHIRMapping.sleepDuration.display))
            subject(&object)
            object.raw("effectivePeriod", Self.period(start: date, end: date))
            let asleep = stages.filter { stage in
                FHIRMapping.sleepStages.contains { $0.statistic == stage.statistic && $0.asleep }
            }.reduce(0) { $0 + $1.hours }
            object.raw("valueQuantity", Self.quantity(asleep, unit: "h", code: "h"))
            var components: [String] = []
            for stage in FHIRMapping.sleepStages {
                guard let hours = stages.first(where: { $0.statistic == stage.statistic })?.hours, hours.isFinite
                else { continue }
                var component = JSONObjectText()
                component.raw("code", Self.concept(system: stage.system, code: stage.code, display: stage.display))
                component.raw("valueQuantity", Self.quantity(hours, unit: "h", code: "h"))
                components.append(component.json)
            }
            object.raw("component", JSONObjectText.array(components))
            device(&object, sources: sources)
        case .bloodPressure(let identity, let source, let start, let end, let systolic, let diastolic):
            guard systolic.isFinite, diastolic.isFinite else { return nil }
            id = Self.id(["Observation", "HKCorrelationTypeIdentifierBloodPressure"], identity: identity)
            header(&object, id: id, category: .vitalSigns)
            object.raw(
                "code",
                Self.concept(
                    system: FHIRMapping.loinc, code: FHIRMapping.bloodPressurePanel.code,
                    display: FHIRMapping.bloodPressurePanel.display))
            subject(&object)
            effective(&object, start: start, end: end)
            var components: [String] = []
            for (part, value) in [(FHIRMapping.systolic, systolic), (FHIRMapping.diastolic, diastolic)] {
                var component = JSONObjectText()
                component.raw("code", Self.concept(system: FHIRMapping.loinc, code: part.code, display: part.display))
                component.raw("valueQuantity", Self.quantity(value, unit: "mmHg", code: FHIRMapping.pressureUnit))
                components.append(component.json)
            }
            object.raw("component", JSONObjectText.array(components))
            device(&object, sources: source)
        }
        return (id, object.json)
    }

    private func header(_ object: inout JSONObjectText, id: String, category: FHIRMapping.Category?) {
        object.string("resourceType", "Observation")
        object.string("id", id)
        object.string("status", "final")
        if let category {
            var coding = JSONObjectText()
            coding.string("system", Self.categorySystem)
            coding.string("code", category.rawValue)
            var concept = JSONObjectText()
            concept.raw("coding", JSONObjectText.array([coding.json]))
            object.raw("category", JSONObjectText.array([concept.json]))
        }
    }

    private func subject(_ object: inout JSONObjectText) {
        guard let patientReference else { return }
        var reference = JSONObjectText()
        reference.string("reference", patientReference)
        object.raw("subject", reference.json)
    }

    private func effective(_ object: inout JSONObjectText, start: String, end: String) {
        if start == end {
            object.string("effectiveDateTime", start)
        } else {
            object.raw("effectivePeriod", Self.period(start: start, end: end))
        }
    }

    /// The Device of a single source; several sources (a day the rollups combined) name none.
    private func device(_ object: inout JSONObjectText, sources: String) {
        guard !sources.isEmpty, !sources.contains("; ") else { return }
        var reference = JSONObjectText()
        reference.string("reference", "Device/" + Self.deviceID(source: sources))
        object.raw("device", reference.json)
    }

    static func concept(system: String, code: String, display: String) -> String {
        var coding = JSONObjectText()
        coding.string("system", system)
        coding.string("code", code)
        coding.string("display", display)
        var concept = JSONObjectText()
        concept.raw("coding", JSONObjectText.array([coding.json]))
        concept.string("text", display)
        return concept.json
    }

    static func text(_ text: String) -> String {
        var concept = JSONObjectText()
        concept.string("text", text)
        return concept.json
    }

    static func quantity(_ value: Double, unit: String, code: String) -> String {
        var quantity = JSONObjectText()
        quantity.number("value", value)
        quantity.string("unit", unit)
        quantity.string("system", ucum)
        quantity.string("code", code)
        return quantity.json
    }

    static func period(start: String, end: String) -> String {
        var period = JSONObjectText()
        period.string("start", start)
        period.string("end", end)
        return period.json
    }

    /// A source as a Device: its name (the de-identified copy's, when run on one), maker, model and version.
    static func device(name: String, version: String?, manufacturer: String?, model: String?) -> (String, String) {
        let id = deviceID(source: name)
        var object = JSONObjectText()
        object.string("resourceType", "Device")
        object.string("id", id)
        var deviceName = JSONObjectText()
        deviceName.string("name", name)
        deviceName.string("type", "user-friendly-name")
        object.raw("deviceName", JSONObjectText.array([deviceName.json]))
        object.string("manufacturer", manufacturer.flatMap { $0.isEmpty ? nil : $0 })
        object.string("modelNumber", model.flatMap { $0.isEmpty ? nil : $0 })
        if let version, !version.isEmpty {
            var value = JSONObjectText()
            value.string("value", version)
            object.raw("version", JSONObjectText.array([value.json]))
        }
        return (id, object.json)
    }

    /// The Patient: no more than `me` holds (sex, date or year of birth), under the id given.
    static func patient(id: String, gender: String?, birthDate: String?) -> String {
        var object = JSONObjectText()
        object.string("resourceType", "Patient")
        object.string("id", id)
        object.string("gender", gender)
        object.string("birthDate", birthDate)
        return object.json
    }

    /// `me`'s sex as FHIR's administrative gender (the iOS 8/9 numbers too); nil when unset.
    static func gender(_ value: String?) -> String? {
        switch value {
        case "HKBiologicalSexFemale", "1": "female"
        case "HKBiologicalSexMale", "2": "male"
        case "HKBiologicalSexOther", "3": "other"
        default: nil
        }
    }

    /// `me`'s birth date as FHIR's `date` (`1984-06-16`, `19840616`, or the de-identified copy's year `1984`);
    /// nil for anything else (the copy's `<=1934`).
    static func birthDate(_ value: String?) -> String? {
        guard let value else { return nil }
        let digits = value.allSatisfy(\.isASCII) && value.allSatisfy { $0.isNumber || $0 == "-" }
        guard digits else { return nil }
        switch value.count {
        case 4 where !value.contains("-"): return value
        case 8 where !value.contains("-"):
            let characters = Array(value)
            return String(characters[0..<4]) + "-" + String(characters[4..<6]) + "-" + String(characters[6..<8])
        case 10 where value.filter({ $0 == "-" }).count == 2: return value
        default: return nil
        }
    }
}
