import Foundation
import HealthTestSupport
import Testing

@testable import HealthDeidentify

@Suite struct SourceNamesTests {
    static let key: DeidentificationKey = {
        // swift-format-ignore: NeverUseForceTry
        // 32 bytes is a valid key: this cannot fail.
        try! DeidentificationKey(bytes: Array(repeating: 7, count: 32))
    }()

    /// The possessive forms the Health app writes in the languages of real exports, and the ones users type.
    @Test(arguments: [
        ("Jonathan’s Apple Watch", "Apple Watch"), ("Jonathan's iPhone", "iPhone"),
        ("Alexandre's Apple Watch", "Apple Watch"),
        ("Apple Watch von Jonathan", "Apple Watch"), ("iPhone de Jonathan", "iPhone"), ("iPhone d’Anne", "iPhone"),
        ("iPhone di Giulia", "iPhone"), ("iPhone van Jan", "iPhone"), ("JonathanのiPhone", "iPhone"),
        ("Jonathanの Apple Watch", "Apple Watch"), ("iPhone (Александр)", "iPhone"), ("iPhone — Александр", "iPhone"),
        ("Jonathan的iPad", "iPad"), ("Jonathan의 iPhone", "iPhone"), ("Jonathans iPhone", "iPhone"),
        ("iPhone użytkownika Anna", "iPhone"), ("Apple Watch Ultra de Léa", "Apple Watch Ultra"),
        ("Alexandre's Galaxy Watch", "Galaxy Watch"), ("Polar H10 de Pierre", "Polar H10"),
        ("Health", "Health"), ("AutoSleep", "AutoSleep"), ("Strava", "Strava"), ("MacroFactor", "MacroFactor"),
        ("Apple Watch", "Apple Watch"), ("Jonathan's Strava", "Strava"), ("omron CONNECT", "omron CONNECT"),
    ])
    func ownersNameRemovedDeviceKindKept(name: String, expected: String) {
        let names = SourceNames(nameWords: [], key: Self.key, keepUnknownApps: true)
        #expect(names.sourceName(name) == expected)
        // By default a name on no list of known apps ("Galaxy Watch", "Polar H10") becomes a pseudonym too.
        let failClosed = SourceNames(nameWords: [], key: Self.key).sourceName(name)
        if SourceNames.deviceKind(in: name) != nil || KnownHealthApps.contains(expected) {
            #expect(failClosed == expected)
        } else {
            #expect(failClosed.hasPrefix("source-") && failClosed.count == "source-".count + 16, "\(failClosed)")
        }
    }

    /// The issue's case: an app named after its owner, whose name the export holds nowhere else. The copy
    /// pseudonymises it unless asked to keep unknown apps; known apps keep their names either way.
    @Test func anUnknownAppNamedAfterAPersonIsPseudonymised() {
        let names = SourceNames(nameWords: [], key: Self.key)
        let renamed = names.sourceName("freddie connect")
        #expect(renamed.hasPrefix("source-") && renamed.count == "source-".count + 16)
        #expect(!renamed.lowercased().contains("freddie"))
        #expect(renamed == names.sourceName("freddie connect"))  // keyed: the same next night
        #expect(renamed != names.sourceName("Freddie Tracker"))
        for known in ["Health", "AutoSleep", "Health Mate", "OMRON connect", "Dexcom G7", "Sleep Cycle", "Oura"] {
            #expect(names.sourceName(known) == known)
        }
        let keeping = SourceNames(nameWords: [], key: Self.key, keepUnknownApps: true)
        #expect(keeping.sourceName("freddie connect") == "freddie connect")
        // Kept only while the export does not name the person elsewhere.
        let named = SourceNames(nameWords: ["freddie"], key: Self.key, keepUnknownApps: true)
        #expect(named.sourceName("freddie connect") == renamed)
    }

    /// docs/privacy.md lists every known app, and names none that the code does not know.
    @Test func thePrivacyPageListsTheKnownApps() throws {
        let page = try String(contentsOfFile: Fixtures.repositoryRoot + "/docs/privacy.md", encoding: .utf8)
        guard let start = page.range(of: "<!-- known-apps -->"), let end = page.range(of: "<!-- /known-apps -->")
        else {
            Issue.record("docs/privacy.md has no known-apps section")
            return
        }
        let listed = Set(
            page[start.upperBound..<end.lowerBound].components(separatedBy: "`").enumerated().filter {
                $0.offset % 2 == 1
            }
            .map { $0.element.split(whereSeparator: \.isWhitespace).joined(separator: " ") })
        let known = Set(KnownHealthApps.apple + KnownHealthApps.thirdParty.flatMap(\.names))
        #expect(listed.subtracting(known).sorted() == [])
        #expect(known.subtracting(listed).sorted() == [])
    }

    /// A phone named by its owner without its kind (`Ryan Phone`, seen in a real export) writes as itself:
    /// its version is its software version.
    @Test func anAppleDeviceWritingAsItselfBecomesItsKind() {
        let names = SourceNames(nameWords: [], key: Self.key)
        #expect(
            names.sourceName(
                "Ryan Phone", deviceModel: "iPhone", manufacturer: "Apple Inc.", version: "12.3", software: "12.3")
                == "iPhone")
        #expect(
            names.sourceName(
                "Health", deviceModel: "iPhone", manufacturer: "Apple Inc.", version: "12.3", software: "12.3")
                == "Health")
        #expect(
            names.sourceName(
                "Health Mate", deviceModel: "iPhone", manufacturer: "Apple Inc.", version: "2160040", software: "12.3")
                == "Health Mate")
    }

    @Test func aNameFromTheExportsOwnFieldsIsPseudonymised() {
        let names = SourceNames(nameWords: ["ryan"], key: Self.key, keepUnknownApps: true)
        let renamed = names.sourceName("Ryan Tracker")
        #expect(renamed.hasPrefix("source-") && renamed.count == "source-".count + 16)
        #expect(renamed == names.sourceName("Ryan Tracker"))
        #expect(names.sourceName("Bryant Tracker") == "Bryant Tracker")  // whole words only
    }

    @Test func metadataNumbersAndText() {
        for number in [
            "72", "-3.5", "1.2e3", "71.5 kg", "12 count/min", "2.5 mmol<180.1558800000541>/L", "96 %",
            "9.83232 kcal/hr·kg",
        ] {
            #expect(MetadataPolicy.isNumber(number), "\(number)")
        }
        for text in [
            "+49 170 5550199", "0170 5550199", "01705550199", "zeb@example.org", "lunch", "2024-01-19 06:42:05 +0000",
            "12 Main Street", "", "1.", "6.2.0", "555 1234",
        ] {
            #expect(!MetadataPolicy.isNumber(text), "\(text)")
        }
        let names = SourceNames(nameWords: ["zebulonia"], key: Self.key)
        #expect(MetadataPolicy.decision(key: "HKTimeZone", value: "Europe/Berlin", names: names) == .keep)
        #expect(MetadataPolicy.decision(key: "HKDeviceSerialNumber", value: "C02X", names: names) == .pseudonymise)
        #expect(MetadataPolicy.decision(key: "Withings User Identifier", value: "12345", names: names) == .pseudonymise)
        #expect(MetadataPolicy.decision(key: "com.fitstar.sessionID", value: "7", names: names) == .pseudonymise)
        #expect(MetadataPolicy.decision(key: "Note", value: "call 555 1234", names: names) == .drop)
        #expect(MetadataPolicy.decision(key: "HKFoodType", value: "pizza", names: names) == .drop)
        #expect(MetadataPolicy.decision(key: "Zebulonia's score", value: "3", names: names) == .drop)
        #expect(MetadataPolicy.decision(key: "Intensity", value: "3", names: names) == .keep)
    }

    @Test func birthYearsAndOldAges() {
        #expect(BirthYear.generalised("1984-06-16", exportYear: 2024) == "1984")
        #expect(BirthYear.generalised("19840616", exportYear: 2024) == "1984")
        #expect(BirthYear.generalised("1935-01-01", exportYear: 2024) == "1935")
        #expect(BirthYear.generalised("1934-12-31", exportYear: 2024) == "<=1934")
        #expect(BirthYear.generalised("1920-05-05", exportYear: 2024) == "<=1934")
        #expect(BirthYear.generalised("?", exportYear: 2024) == "")
    }

    /// Against Foundation's calendar, over leap years and the turn of a century.
    @Test func datesShiftByWholeDays() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        for start in ["1999-12-25", "2000-02-27", "2024-02-28", "2023-03-01", "1970-01-01", "2100-02-28"] {
            for days in [-728, -91, -7, 7, 14, 364, 728] {
                let expected = formatter.string(
                    from: calendar.date(byAdding: .day, value: days, to: formatter.date(from: start)!)!)
                #expect(DateShift.shift(start, days: days) == expected, "\(start) \(days)")
            }
        }
        #expect(
            DateShift.shiftDates(in: "missing file route_2024-01-03_5.48pm.gpx, 12024-01-03", days: 7)
                == "missing file route_2024-01-10_5.48pm.gpx, 12024-01-03")
    }

    @Test func theShiftIsWholeWeeksNeverZeroAndKeyed() throws {
        var shifts = Set<Int>()
        for byte in 0..<64 {
            let key = try DeidentificationKey(bytes: Array(repeating: UInt8(byte), count: 32))
            #expect(key.shiftWeeks != 0 && abs(key.shiftWeeks) <= 104)
            shifts.insert(key.shiftWeeks)
            let person = try DeidentificationKey(bytes: Array(repeating: UInt8(byte), count: 32), person: "p1")
            #expect(
                person.shiftWeeks
                    == (try DeidentificationKey(bytes: Array(repeating: UInt8(byte), count: 32), person: "p1"))
                    .shiftWeeks)
        }
        #expect(shifts.count > 30)
    }

    /// The shape survives: distances between points, measured independently (haversine), stay within 0.5 %.
    @Test func relativeRoutesKeepTheShape() {
        let points = [(52.5106, 13.3551), (52.5120, 13.3600), (52.5090, 13.3700), (52.5150, 13.3650)]
        func haversine(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
            let radians = Double.pi / 180
            let dLat = (b.0 - a.0) * radians
            let dLon = (b.1 - a.1) * radians
            let h =
                sin(dLat / 2) * sin(dLat / 2) + cos(a.0 * radians) * cos(b.0 * radians) * sin(dLon / 2) * sin(dLon / 2)
            return 2 * 6_371_000 * asin(sqrt(h))
        }
        let frame = RelativeRoute(origin: points[0], angle: 1.1)
        let moved = points.map { frame.point(latitude: $0.0, longitude: $0.1) }
        #expect(moved[0].latitude == 0 && moved[0].longitude == 0)
        for index in 1..<points.count {
            let before = haversine(points[index - 1], points[index])
            let after = haversine(
                (moved[index - 1].latitude, moved[index - 1].longitude), (moved[index].latitude, moved[index].longitude)
            )
            #expect(abs(after - before) / before < 0.001)
        }
        #expect(RelativeRoute(origin: (0, 0), angle: Double.pi / 2).course(10) == 280)
    }
}
