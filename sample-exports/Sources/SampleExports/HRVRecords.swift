/// How `InstantaneousBeatsPerMinute@time` looks: a localised time of day with centiseconds and no date or zone.
enum BeatTimeStyle: CaseIterable {
    /// en_US: `6:14:48.94 PM`
    case twelveHour
    /// 24-hour with a dot: `20:14:07.68`
    case twentyFourHour
    /// en_FR/en_PT: `00:20:37,80`
    case twentyFourHourComma
    /// Seen in the wild: `3:10:02,11 AM`
    case twelveHourComma

    static func forLocale(_ locale: String) -> BeatTimeStyle {
        switch locale {
        case "en_US": return .twelveHour
        case "en_FR", "en_PT", "fr_FR", "de_DE", "en_DE": return .twentyFourHourComma
        default: return .twentyFourHour
        }
    }

    /// `centiseconds` since local midnight (may exceed a day; wraps like a clock).
    func text(centiseconds: Int64) -> String {
        let day: Int64 = 8_640_000
        let value = ((centiseconds % day) + day) % day
        let hours = Int(value / 360_000)
        let minutes = NumberText.twoDigits(Int(value / 6_000 % 60))
        let seconds = NumberText.twoDigits(Int(value / 100 % 60))
        let fraction = NumberText.twoDigits(Int(value % 100))
        switch self {
        case .twelveHour, .twelveHourComma:
            let hour = hours % 12 == 0 ? 12 : hours % 12
            let mark = self == .twelveHour ? "." : ","
            return "\(hour):\(minutes):\(seconds)\(mark)\(fraction) \(hours < 12 ? "AM" : "PM")"
        case .twentyFourHour:
            return "\(NumberText.twoDigits(hours)):\(minutes):\(seconds).\(fraction)"
        case .twentyFourHourComma:
            return "\(NumberText.twoDigits(hours)):\(minutes):\(seconds),\(fraction)"
        }
    }
}

/// HRV SDNN records, written after the ActivitySummaries as the exporter's separate pass does, most with their
/// beat-to-beat list. Beat times are in the device's DST-aware zone while the record uses the export offset, so
/// in summer they disagree by an hour, as in real files.
struct HRVRecords {
    let context: ExportContext

    func write() throws {
        let fixedStyle = BeatTimeStyle.forLocale(context.options.effectiveLocale)
        var recordIndex = 0
        for day in 0..<context.days {
            let plan = context.plan(day)
            var random = context.random("hrv", day: day)
            var starts: [Int64] = []
            for _ in 0..<random.int(3...6) {
                let time = plan.start + Int64(random.int(3_600...84_000))
                if plan.watchWorn(at: time) { starts.append(time) }
            }
            if day == 0 {
                // One list that crosses local midnight: its times run 23:59:xx then 00:00:xx.
                starts.append(plan.end - 40)
            }
            for start in starts.sorted() {
                let style =
                    context.options.mixHRVTimeStyles
                    ? BeatTimeStyle.allCases[recordIndex % BeatTimeStyle.allCases.count] : fixedStyle
                recordIndex += 1
                try writeOne(
                    start: start, style: style, withBeats: !random.chance(0.1),
                    factor: PlantedIllness.hrvFactor(day: day, context), random: &random)
            }
        }
    }

    private func writeOne(
        start: Int64, style: BeatTimeStyle, withBeats: Bool, factor: Double, random: inout SeededRandom
    ) throws {
        let beats = random.int(52...88)
        var bpms: [Int] = []
        var centiseconds: [Int64] = []
        let localMidnightOffset = Int64(context.options.homeZone.offset(at: start))
        var cursor = ((start + localMidnightOffset) % 86_400) * 100 + Int64(random.int(0...99))
        for _ in 0..<beats {
            let bpm = random.int(56...84)
            bpms.append(bpm)
            centiseconds.append(cursor)
            cursor += Int64(6_000 / bpm) + Int64(random.int(-4...4))
        }
        let end = start + (cursor - centiseconds[0]) / 100 + 1
        let writer = context.writer
        try context.writeRecord(
            type: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", source: context.sources.watch, unit: "ms",
            created: end + Int64(random.int(5...300)), start: start, end: end,
            value: .quantity(random.double(22, 88) * factor),
            children: withBeats
                ? {
                    try writer.raw("  <HeartRateVariabilityMetadataList>\n")
                    for (bpm, time) in zip(bpms, centiseconds) {
                        try writer.raw("   <InstantaneousBeatsPerMinute bpm=\"")
                        try writer.int(bpm)
                        try writer.raw("\" time=\"")
                        try writer.raw(style.text(centiseconds: time))
                        try writer.raw("\"/>\n")
                    }
                    try writer.raw("  </HeartRateVariabilityMetadataList>\n")
                } : nil)
        if withBeats {
            context.tally.hrvRecordsWithBeats += 1
            context.tally.hrvBeats += beats
        }
    }
}
