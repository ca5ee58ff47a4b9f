import Foundation
import HealthTestSupport
import Testing

/// The real exports in ../shared/fixtures/real, checked against the independent `analysis.txt` written
/// beside each. Skipped in a clone that has no ../shared.
struct RealFixtureTests {
    /// `element counts: Record=3352, MetadataEntry=7, …` and the `record types` table of analysis.txt.
    struct Analysis {
        var elements: [String: Int] = [:]
        var recordTypes: [String: Int] = [:]
        var controlCharacters = 0

        init(path: String) throws {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            var inTypes = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("element counts:") {
                    for pair in line.dropFirst("element counts:".count).split(separator: ",") {
                        let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=")
                        if parts.count == 2, let count = Int(parts[1]) { elements[String(parts[0])] = count }
                    }
                } else if line.hasPrefix("control chars removed:") {
                    controlCharacters = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
                } else if line.hasPrefix("record types") {
                    inTypes = true
                } else if inTypes {
                    let fields = line.trimmingCharacters(in: .whitespaces).split(separator: "\t")
                    if line.hasPrefix("  "), fields.count >= 2, let count = Int(fields[1]) {
                        recordTypes[String(fields[0])] = count
                    } else {
                        inTypes = false
                    }
                }
            }
        }
    }

    static let fixtures: [(export: String, analysis: String)] = [
        ("rgosdin-ios12-v8/export.zip", "rgosdin-ios12-v8/analysis.txt"),
        ("rgosdin-ios12-v8/export.xml", "rgosdin-ios12-v8/analysis.txt"),
        ("dogsheep-excerpt/export.xml", "dogsheep-excerpt/analysis.txt"),
    ]

    /// Every fixture and its analysis is in ../shared/fixtures/real.
    static var fixturesArePresent: Bool {
        fixtures.allSatisfy { Fixtures.real($0.export) != nil && Fixtures.real($0.analysis) != nil }
    }

    @Test(
        .enabled(if: fixturesArePresent, "../shared/fixtures/real is not present in this checkout"),
        arguments: fixtures.indices)
    func parsesWithTheCountsOfTheIndependentAnalysis(_ index: Int) throws {
        let fixture = Self.fixtures[index]
        let export = try #require(Fixtures.real(fixture.export))
        let analysisPath = try #require(Fixtures.real(fixture.analysis))
        let analysis = try Analysis(path: analysisPath)
        let (items, reader) = try readAllItems(export)
        var types: [String: Int] = [:]
        for sample in items.samples { types[sample.type, default: 0] += 1 }
        #expect(types == analysis.recordTypes)
        // Element counts: Records counted at top level only are in `records`, children of correlations apart.
        for (element, count) in analysis.elements where element != "HealthData" {
            #expect(reader.elementCounts[element] == count, "\(element)")
        }
        #expect(reader.removedControlCharacters == analysis.controlCharacters)
        #expect(reader.warnings.isEmpty, "\(reader.warnings)")
    }

    @Test(.enabled(if: Fixtures.real("dogsheep-excerpt/export.xml") != nil, "../shared is not present"))
    func dogsheepInlineRouteAndOldWorkoutTotals() throws {
        let export = try #require(Fixtures.real("dogsheep-excerpt/export.xml"))
        let (items, _) = try readAllItems(export)
        let workout = try #require(items.workouts.first)
        #expect(workout.totalDistance != nil)
        #expect(workout.totalEnergyBurned != nil)
        #expect(workout.routes.first?.points.count == 2)
        let link = items.samples.flatMap(\.metadata).first { $0.key == "Withings Link" }
        #expect(link?.value == "withings-bd2://timeline/measure?userid=12345&date=482685932&type=1")
    }

    @Test(.enabled(if: Fixtures.real("dogsheep-excerpt/zip_contents") != nil, "../shared is not present"))
    func dogsheepFolderResolvesTheGPXRoute() throws {
        let folder = try #require(Fixtures.real("dogsheep-excerpt/zip_contents"))
        let (items, reader) = try readAllItems(folder)
        let route = try #require(items.workouts.first?.routes.first)
        #expect(route.problem == nil, "\(route.problem ?? "")")
        #expect(route.points.count > 0)
        #expect(reader.warnings.isEmpty, "\(reader.warnings)")
    }
}
