import HealthModel

/// Every way two `Sample`s differ, field by field and strictly (`Sample` is not `Equatable`): texts by their
/// UTF-8 bytes (not `String`'s canonical equivalence), numbers by their bit patterns (a NaN equals only the same
/// NaN, `nil` only `nil`), the source as the same shared object, metadata and beats in order. Empty: the same.
package func differences(_ found: Sample, _ expected: Sample) -> [String] {
    var report: [String] = []
    func text(_ name: String, _ left: String?, _ right: String?) {
        if left.map({ Array($0.utf8) }) != right.map({ Array($0.utf8) }) {
            report.append("\(name): \(left.debugDescription) ≠ \(right.debugDescription)")
        }
    }
    func number(_ name: String, _ left: Double?, _ right: Double?) {
        if left?.bitPattern != right?.bitPattern {
            report.append("\(name): \(left.debugDescription) ≠ \(right.debugDescription)")
        }
    }
    func date(_ name: String, _ left: Timestamp?, _ right: Timestamp?) {
        if left?.seconds != right?.seconds || left?.offsetSeconds != right?.offsetSeconds {
            report.append("\(name): \(left.debugDescription) ≠ \(right.debugDescription)")
        }
    }
    text("type", found.type, expected.type)
    if found.source !== expected.source {
        report.append("source: another object (id \(found.source.id) ≠ \(expected.source.id))")
    }
    text("unit", found.unit, expected.unit)
    number("value", found.value, expected.value)
    number("rawValue", found.rawValue, expected.rawValue)
    text("rawUnit", found.rawUnit, expected.rawUnit)
    text("textValue", found.textValue, expected.textValue)
    text("rawTextValue", found.rawTextValue, expected.rawTextValue)
    date("creationDate", found.creationDate, expected.creationDate)
    date("startDate", found.startDate, expected.startDate)
    date("endDate", found.endDate, expected.endDate)
    if found.metadata.count != expected.metadata.count {
        report.append("metadata: \(found.metadata.count) entries ≠ \(expected.metadata.count)")
    } else {
        for (index, (left, right)) in zip(found.metadata, expected.metadata).enumerated() {
            text("metadata[\(index)].key", left.key, right.key)
            text("metadata[\(index)].value", left.value, right.value)
            number("metadata[\(index)].number", left.number, right.number)
            text("metadata[\(index)].numberUnit", left.numberUnit, right.numberUnit)
        }
    }
    if found.beats.count != expected.beats.count {
        report.append("beats: \(found.beats.count) ≠ \(expected.beats.count)")
    } else {
        for (index, (left, right)) in zip(found.beats, expected.beats).enumerated() {
            number("beats[\(index)].bpm", left.bpm, right.bpm)
            number("beats[\(index)].secondOfDay", left.secondOfDay, right.secondOfDay)
            number("beats[\(index)].seconds", left.seconds, right.seconds)
            text("beats[\(index)].rawTime", left.rawTime, right.rawTime)
        }
    }
    if found.flags != expected.flags { report.append("flags: \(found.flags.rawValue) ≠ \(expected.flags.rawValue)") }
    if found.line != expected.line { report.append("line: \(found.line) ≠ \(expected.line)") }
    return report
}

extension Array where Element == ExportItem {
    /// Every `Sample` the decoder made, in document order: the top-level records and correlations' children.
    package var allSamples: [Sample] {
        flatMap { item -> [Sample] in
            switch item {
            case .sample(let sample): [sample]
            case .correlation(let correlation): correlation.children
            default: []
            }
        }
    }
}
