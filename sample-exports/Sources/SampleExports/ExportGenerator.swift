/// Writes a realistic, deterministic Apple Health export ("Export All Health Data") and counts what it wrote.
///
/// The XML is streamed through a 1 MiB buffer straight into its file or zip entry, so memory stays flat for
/// multi-GB benchmark exports. Sections come in the real exporter's order: ExportDate, Me, quantity types grouped
/// by type, categories, correlations, audiograms, workouts, activity summaries, HRV, vision Rx, clinical records.
public final class ExportGenerator {
    public let options: GeneratorOptions

    public init(options: GeneratorOptions) {
        self.options = options
    }

    /// Generates the export. With `targetXMLBytes`, the day count is first estimated from two small dry runs and
    /// the export regenerated with more days in the unlikely case it comes out short.
    @discardableResult
    public func write(to output: OutputKind) throws -> ExportTally {
        guard ExportClock(offset: options.exportOffset) != nil else {
            throw GeneratorError.badOption("exportOffset must look like +0100, got \(options.exportOffset)")
        }
        guard options.scale > 0, options.scale <= 100 else {
            throw GeneratorError.badOption("scale must be in (0, 100]")
        }
        guard (options.routeIntervalSeconds ?? 1) >= 1 else {
            throw GeneratorError.badOption("routeIntervalSeconds must be at least 1")
        }
        guard (1...3).contains(options.workoutLengthFactor) else {
            throw GeneratorError.badOption("workoutLengthFactor must be 1, 2 or 3")
        }
        guard (0...100).contains(options.extraMetadataPerRecord) else {
            throw GeneratorError.badOption("extraMetadataPerRecord must be in 0...100")
        }
        guard !options.xmlFileName.isEmpty, !options.xmlFileName.contains("/") else {
            throw GeneratorError.badOption("xmlFileName must be a plain file name")
        }
        guard let target = options.targetXMLBytes else {
            guard options.days >= 1 else { throw GeneratorError.badOption("days must be at least 1") }
            return try writeOnce(days: options.days, output: output)
        }
        var days = try estimateDays(target: target)
        while true {
            let tally = try writeOnce(days: days, output: output)
            if tally.xmlBytes >= target { return tally }
            days = Int((Double(days) * Double(target) / Double(max(1, tally.xmlBytes)) * 1.01).rounded(.up)) + 1
        }
    }

    /// Days needed for `target` bytes: per-day size from a 7- and a 14-day dry run, plus 1.5 % headroom.
    func estimateDays(target: Int) throws -> Int {
        let short = try writeOnce(days: 7, container: NullContainer()).xmlBytes
        let long = try writeOnce(days: 14, container: NullContainer()).xmlBytes
        let perDay = max(1, Double(long - short) / 7)
        let fixed = Double(short) - perDay * 7
        return max(1, Int(((Double(target) - fixed) / perDay * 1.015).rounded(.up)))
    }

    private func writeOnce(days: Int, output: OutputKind) throws -> ExportTally {
        let container: ExportContainer
        switch output {
        case .zip(let path): container = try ZipContainer(path: path, level: options.compressionLevel)
        case .folder(let path): container = try FolderContainer(root: path)
        case .bareXML(let path): container = BareXMLContainer(path: path)
        }
        return try writeOnce(days: days, container: container)
    }

    private func writeOnce(days: Int, container: ExportContainer) throws -> ExportTally {
        let clock = ExportClock(offset: options.exportOffset)!
        let sink = try container.begin(options.xmlFileName)
        let writer = XMLWriter(sink: sink, clock: clock)
        let context = ExportContext(options: options, days: days, writer: writer)
        try writeXML(context)
        try writer.flush()
        try container.end()
        context.tally.xmlBytes = writer.bytesWritten
        context.tally.controlCharacters = writer.controlCharacters
        // The iOS 8/9 exporter wrote export.xml alone (no CDA, routes or ECGs existed yet).
        if container.writesSideFiles && options.includeSideFiles && options.profile != .ios8 {
            try writeSideFiles(context, container: container)
        }
        context.tally.outputBytes = try container.finish()
        context.tally.profile = options.profile.rawValue
        context.tally.seed = options.seed
        context.tally.days = days
        context.tally.xmlFileName = options.xmlFileName
        context.tally.firstDay = CivilDate.dayText(context.firstDayNumber)
        context.tally.lastDay = CivilDate.dayText(context.firstDayNumber + days - 1)
        return context.tally
    }

    func writeXML(_ context: ExportContext) throws {
        let writer = context.writer
        let profile = context.profile
        try writer.raw(DTDText.prolog(for: profile))
        try writer.raw("<HealthData locale=\"")
        try writer.escaped(options.effectiveLocale)
        try writer.raw("\">\n")
        if profile == .ios8 {
            try LegacyExportWriter(context: context).write()
            try writer.raw("</HealthData>\n")
            return
        }
        let summaries = SummaryWriters(context: context)
        try summaries.writeHeader()

        let vitals = VitalsRecords(context: context)
        try vitals.writeHeartRate()
        try vitals.writeDaily(
            type: "HKQuantityTypeIdentifierRestingHeartRate", unit: "count/min", range: 50...62, modernOnly: false)
        try vitals.writeDaily(
            type: "HKQuantityTypeIdentifierWalkingHeartRateAverage", unit: "count/min", range: 88...108,
            modernOnly: false)
        try vitals.writeNightly(
            type: "HKQuantityTypeIdentifierOxygenSaturation", unit: "%", every: 5_400, range: 0.93...0.995)
        try vitals.writeNightly(
            type: "HKQuantityTypeIdentifierRespiratoryRate", unit: "count/min", every: 1_800, range: 12...17.5)
        try vitals.writeBodyTemperature()
        try vitals.writeBloodPressure(systolic: true)
        try vitals.writeBloodPressure(systolic: false)
        try vitals.writeVO2Max()
        try vitals.writeWristTemperature()
        try vitals.writeBloodGlucose()

        let body = BodyRecords(context: context)
        try body.writeBodyMass()
        try body.writeScaleExtras(type: "HKQuantityTypeIdentifierBodyMassIndex", unit: "count", range: 23...24.5)
        try body.writeScaleExtras(type: "HKQuantityTypeIdentifierBodyFatPercentage", unit: "%", range: 0.17...0.23)
        try body.writeHeight()

        let activity = ActivityRecords(context: context)
        try activity.writeSteps()
        try activity.writeDistance()
        try activity.writeCyclingDistance()
        try activity.writeActiveEnergy()
        try activity.writeBasalEnergy()
        try activity.writeFlights()
        try activity.writeExerciseTime()

        let kilojoules = profile.dietaryEnergyUnit == "kJ"
        try body.writeDietary(type: "HKQuantityTypeIdentifierDietaryEnergyConsumed", unit: profile.dietaryEnergyUnit) {
            kilojoules ? $0.energyKcal * 4.184 : $0.energyKcal
        }
        try body.writeDietary(type: "HKQuantityTypeIdentifierDietaryCarbohydrates", unit: "g") { $0.carbohydrates }
        try body.writeDietary(type: "HKQuantityTypeIdentifierDietaryProtein", unit: "g") { $0.protein }
        try body.writeWater()
        try body.writeSixMinuteWalk()
        try body.writeSleepGoal()

        let categories = CategoryRecords(context: context)
        try categories.writeSleep()
        try categories.writeStandHours()
        try categories.writeMindfulSessions()
        try categories.writeHighHeartRateEvents()

        try CorrelationRecords(context: context).write()
        try summaries.writeAudiograms()
        try WorkoutWriter(context: context).write()
        try summaries.writeActivitySummaries()
        try vitals.writeHeartRateVariability()
        try summaries.writeVisionPrescriptions()
        try summaries.writeClinicalRecords()
        try writer.raw("</HealthData>\n")
    }

    /// CDA, then GPX routes, ECG CSVs and FHIR JSON, each streamed into its own file or entry.
    private func writeSideFiles(_ context: ExportContext, container: ExportContainer) throws {
        let side = SideFiles(context: context)
        let cdaName =
            options.xmlFileName.hasSuffix(".xml")
            ? String(options.xmlFileName.dropLast(4)) + "_cda.xml" : options.xmlFileName + "_cda.xml"
        try streamFile(cdaName, container: container, clock: context.clock) { try side.writeCDA(to: $0) }
        for route in context.routeFiles {
            try streamFile(route.relativePath, container: container, clock: context.clock) { out in
                context.tally.routePoints += try RouteWriter.writeGPX(route, to: out, context: context)
            }
            context.tally.routeFiles += 1
        }
        for item in SideFiles.ecgItems(context: context) {
            try streamFile("electrocardiograms/" + item.fileName, container: container, clock: context.clock) {
                context.tally.ecgSamples += try side.writeECG(item, to: $0)
            }
            context.tally.ecgRecordings += 1
        }
        for item in SummaryWriters.clinicalItems(context: context) {
            try streamFile(item.relativePath, container: container, clock: context.clock) {
                try $0.raw(side.clinicalJSON(item))
            }
        }
    }

    private func streamFile(
        _ relativePath: String, container: ExportContainer, clock: ExportClock, body: (XMLWriter) throws -> Void
    ) throws {
        let out = XMLWriter(sink: try container.begin(relativePath), clock: clock)
        try body(out)
        try out.flush()
        try container.end()
    }
}
