/// One Health Records entry: the `ClinicalRecord` element and its FHIR JSON file share these values.
struct ClinicalItem {
    let hkType: String
    let resourceType: String
    let identifier: String
    let fileUUID: String
    let institution: String
    let received: Int64
    let day: Int
    let index: Int

    var relativePath: String { "clinical-records/\(resourceType)-\(fileUUID).json" }
}

/// The small elements: ExportDate, Me, ActivitySummary, Audiogram, VisionPrescription, ClinicalRecord.
struct SummaryWriters {
    let context: ExportContext
    var writer: XMLWriter { context.writer }

    func writeHeader() throws {
        try writer.raw(" <ExportDate")
        try writer.attrDate("value", context.exportTime)
        try writer.raw("/>\n")
        try writer.raw(" <Me")
        // The iOS 16 sample user never set a birthday: the exporter writes an empty string.
        try writer.attr("HKCharacteristicTypeIdentifierDateOfBirth", context.profile == .ios16 ? "" : "1984-06-16")
        try writer.attr("HKCharacteristicTypeIdentifierBiologicalSex", "HKBiologicalSexMale")
        try writer.attr("HKCharacteristicTypeIdentifierBloodType", "HKBloodTypeONegative")
        try writer.attr("HKCharacteristicTypeIdentifierFitzpatrickSkinType", "HKFitzpatrickSkinTypeNotSet")
        if context.profile.isModern {
            try writer.attr("HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse", "None")
        }
        try writer.raw("/>\n")
    }

    func writeActivitySummaries() throws {
        let profile = context.profile
        for day in 0..<context.days {
            let plan = context.plan(day)
            var random = context.random("activity-summary", day: day)
            let exercise = plan.workouts.reduce(0) { $0 + Int(($1.end - $1.start) / 60) } + random.int(0...12)
            try writer.raw(" <ActivitySummary")
            try writer.attr("dateComponents", CivilDate.dayText(context.firstDayNumber + day))
            try writer.attrG("activeEnergyBurned", profile.activeEnergy(fromKcal: random.double(280, 950)))
            try writer.attrG("activeEnergyBurnedGoal", profile.activeEnergy(fromKcal: 600))
            try writer.attr("activeEnergyBurnedUnit", profile.activeEnergyUnit)
            if profile.isModern {
                try writer.raw(" appleMoveTime=\"0\" appleMoveTimeGoal=\"0\"")
            }
            try writer.attrG("appleExerciseTime", Double(exercise))
            try writer.raw(" appleExerciseTimeGoal=\"30\"")
            try writer.attrInt("appleStandHours", random.int(6...15))
            try writer.raw(" appleStandHoursGoal=\"12\"/>\n")
            context.tally.activitySummaries += 1
        }
    }

    /// Pure-tone audiograms; iOS 18.2+ adds masked flags and clamping bounds without a DTD version bump.
    func writeAudiograms() throws {
        guard context.profile.isModern else { return }
        let frequencies: [Double] = [125, 250, 500, 1_000, 2_000, 4_000, 6_000, 8_000]
        for day in stride(from: min(2, context.days - 1), to: context.days, by: 180) {
            var random = context.random("audiogram", day: day)
            let start = context.plan(day).wake + 10_000
            try writer.raw(" <Audiogram type=\"HKDataTypeIdentifierAudiogram\"")
            try context.writeSource(context.sources.hearingApp)
            try writer.attrDate("creationDate", start + 420)
            try writer.attrDate("startDate", start)
            try writer.attrDate("endDate", start + 400)
            try writer.raw(">\n")
            try context.writeMetadata([("HKDeviceName", "AirPods Pro")], depth: 2)
            for (index, frequency) in frequencies.enumerated() {
                try writer.raw("  <SensitivityPoint")
                try writer.attrG("frequencyValue", frequency)
                try writer.raw(" frequencyUnit=\"Hz\"")
                for ear in ["left", "right"] {
                    let level = Double(random.int(0...8) * 5) + (frequency > 3_000 ? 10 : 0)
                    try writer.attrG(ear == "left" ? "leftEarValue" : "rightEarValue", level)
                    try writer.raw(ear == "left" ? " leftEarUnit=\"dBHL\"" : " rightEarUnit=\"dBHL\"")
                    if context.profile == .ios18 {
                        let masked = index % 3 == 1 ? "YES" : "NO"
                        try writer.raw(ear == "left" ? " leftEarMasked=\"" : " rightEarMasked=\"")
                        try writer.raw(masked)
                        try writer.byte(0x22)
                        if index % 4 == 3 && ear == "left" {
                            try writer.attrG("leftEarClampingRangeLowerBound", -10)
                            try writer.attrG("leftEarClampingRangeUpperBound", 75)
                        } else if index % 4 == 3 {
                            try writer.attrG("rightEarClampingRangeLowerBound", -10)
                            try writer.attrG("rightEarClampingRangeUpperBound", 75)
                        }
                    }
                }
                try writer.raw("/>\n")
                context.tally.sensitivityPoints += 1
            }
            try writer.raw(" </Audiogram>\n")
            context.tally.audiograms += 1
        }
    }

    /// Glasses and contacts, each eye with value/unit pairs, plus the undeclared `device` attribute. The left eye's
    /// `nearPD` repeats the right eye's, reproducing Apple's bug.
    func writeVisionPrescriptions() throws {
        guard context.profile.isModern else { return }
        let issued = context.plan(0).start - 200 * 86_400 + 11 * 3_600
        for glasses in [true, false] {
            try writer.raw(" <VisionPrescription")
            try writer.attr("type", glasses ? "glasses" : "contacts")
            try writer.attrDate("dateIssued", issued)
            try writer.attrDate("expirationDate", issued + 730 * 86_400)
            if !glasses { try writer.attr("brand", "ACUVUE OASYS") }
            try context.writeDevice(context.sources.iPhone.device!)
            try writer.raw(">\n")
            for right in [true, false] {
                try writer.raw(right ? "  <RightEye" : "  <LeftEye")
                func pair(_ name: StaticString, _ unitName: StaticString, _ value: Double, _ unit: String) throws {
                    try writer.attrG(name, value)
                    try writer.attr(unitName, unit)
                }
                try pair("sphere", "sphereUnit", right ? -1.25 : -1.5, "D")
                try pair("cylinder", "cylinderUnit", right ? -0.5 : -0.75, "D")
                try pair("axis", "axisUnit", right ? 90 : 85, "deg")
                try pair("add", "addUnit", 0.75, "D")
                if glasses {
                    try pair("vertex", "vertexUnit", 12, "mm")
                    try pair("prismAmount", "prismAmountUnit", 0.5, "^")
                    try pair("prismAngle", "prismAngleUnit", right ? 270 : 90, "deg")
                    try pair("farPD", "farPDUnit", right ? 32 : 31.5, "mm")
                    try pair("nearPD", "nearPDUnit", 30.5, "mm")
                } else {
                    try pair("baseCurve", "baseCurveUnit", 8.4, "mm")
                    try pair("diameter", "diameterUnit", 14, "mm")
                }
                try writer.raw("/>\n")
            }
            try writer.raw(" </VisionPrescription>\n")
            context.tally.visionPrescriptions += 1
        }
    }

    static func clinicalItems(context: ExportContext) -> [ClinicalItem] {
        let kinds = [
            ("HKClinicalTypeIdentifierLabResultRecord", "Observation"),
            ("HKClinicalTypeIdentifierImmunizationRecord", "Immunization"),
            ("HKClinicalTypeIdentifierConditionRecord", "Condition"),
            ("HKClinicalTypeIdentifierAllergyRecord", "AllergyIntolerance"),
        ]
        let count = min(40, max(2, context.days / 10))
        return (0..<count).map { index in
            var random = context.random("clinical", day: index)
            let day = index * context.days / count
            let kind = kinds[index == 0 ? 0 : index % kinds.count]
            return ClinicalItem(
                hkType: kind.0, resourceType: kind.1,
                identifier: "e" + random.uuid().replacingAll("-", with: "").prefix(23).lowercased(),
                fileUUID: random.uuid(),
                institution: index % 2 == 0 ? "Charité – Universitätsmedizin Berlin" : "St. Mary’s Hospital & Clinics",
                received: context.plan(day).start + 15 * 3_600 + Int64(random.int(0...3_600)), day: day, index: index)
        }
    }

    func writeClinicalRecords() throws {
        for item in Self.clinicalItems(context: context) {
            try writer.raw(" <ClinicalRecord")
            try writer.attr("type", item.hkType)
            try writer.attr("identifier", item.identifier)
            try writer.attr("sourceName", item.institution)
            try writer.attr(
                "sourceURL",
                item.index % 2 == 0
                    ? "https://epic.charite.example/FHIR/api/FHIR/R4" : "https://fhir.stmarys.example/R4?tenant=a&b=1")
            try writer.attr("fhirVersion", "4.0.1")
            try writer.attrDate("receivedDate", item.received)
            try writer.attr("resourceFilePath", "/" + item.relativePath)
            try writer.raw("/>\n")
            context.tally.clinicalRecords += 1
        }
    }
}

extension String {
    /// Small helper to avoid Foundation's bridging for one replacement.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}
