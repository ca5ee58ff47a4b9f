import Foundation
import HealthImport
import HealthSQLite
import HealthTestSupport
import SampleExports

/// A generated export with identifiers of our own planted in every place the issue lists — names in source and
/// device names (in several languages' possessive forms), a serial number, an e-mail address and a phone number
/// in a third-party note, a birth date, a patient's name, address and record number in FHIR and the CDA
/// document, an ECG header's name and birth date — imported into a database. The routes' starts are the home
/// location. Made once per test process.
struct PlantedExport: Sendable {
    let database: String
    /// Each route's first point in the original (latitude, longitude): where the person lives.
    let homes: [(Double, Double)]

    /// What must appear nowhere in a shared output, in any encoding.
    static let plantedStrings = [
        "Zebulonia", "Quirinella", "SN-QX7Z99K1PLANT", "zeb.planted@example.org", "5550199", "1987-03-14", "19870314",
        "1987/03/14",
        "Mar 14, 1987", "Plantedweg", "Xylotown", "MRN-PLANT-9917", "PLANTED-UUID-4242", "Scale of Zebulonia",
    ]

    static let shared = OnceCache<String, PlantedExport>()

    static func make() throws -> PlantedExport {
        try shared.value("planted") {
            let folder = TemporaryDirectory.removedAtExit("deidentify-planted")
            var options = GeneratorOptions(seed: 5, days: 6, profile: .ios18)
            options.scale = 0.4
            _ = try ExportGenerator(options: options).write(to: .folder(folder.path))
            let export = folder.file("apple_health_export")
            try plant(in: export)
            let database = folder.file("health.sqlite")
            _ = try ImportJob(
                inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "Europe/Berlin")!
            ).run()
            try plantInDatabase(database)
            let homes = try SQLiteConnection(path: database, create: false).query(
                """
                SELECT p.latitude, p.longitude FROM route_point_rows AS p
                JOIN (SELECT route_id, min(seq) AS seq FROM route_point_rows GROUP BY route_id) AS f
                    ON f.route_id = p.route_id AND f.seq = p.seq
                """
            ).map { (Self.double($0[0]), Self.double($0[1])) }
            return PlantedExport(database: database, homes: homes)
        }
    }

    static func double(_ value: SQLiteValue) -> Double {
        if case .real(let number) = value { return number }
        if case .integer(let number) = value { return Double(number) }
        return .nan
    }

    /// What an export cannot plant by itself: a run warning naming a source and a person, and a row a re-import
    /// archived in `deleted_samples` with its JSON.
    private static func plantInDatabase(_ database: String) throws {
        let connection = try SQLiteConnection(path: database, create: false)
        try connection.execute(
            """
            INSERT INTO import_warnings (run_id, message, count) VALUES
                (1, 'route file missing for a workout of Zebulonia’s iPhone on 2024-01-03', 1),
                (1, 'Quirinella wrote this one', 1);
            INSERT INTO deleted_samples (run_id, reason, row_table, row_id, type, source_name, start_date, end_date,
                local_date, identity, row_json, metadata_json)
            VALUES (1, 'deleted', 'discrete_samples', 999999, 'HKQuantityTypeIdentifierBodyMass', 'Zebulonia’s iPhone',
                '2024-01-03T07:00:00Z', '2024-01-03T07:00:00Z', '2024-01-03', 12345,
                '{"source_name":"Zebulonia’s iPhone","device":"SN-QX7Z99K1PLANT"}',
                '[["Note","mail zeb.planted@example.org"]]');
            """)
    }

    private static func plant(in export: String) throws {
        let xmlPath = export + "/export.xml"
        var xml = try String(contentsOfFile: xmlPath, encoding: .utf8)
        xml = xml.replacingOccurrences(of: "Jonathan’s Apple Watch", with: "Apple Watch von Quirinella")
        xml = xml.replacingOccurrences(of: "Jonathan", with: "Zebulonia")
        xml = xml.replacingOccurrences(
            of: #"HKCharacteristicTypeIdentifierDateOfBirth="1984-06-16""#,
            with: #"HKCharacteristicTypeIdentifierDateOfBirth="1987-03-14""#)
        let phone =
            "device=\"&lt;&lt;HKDevice: 0x1&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, "
            + "hardware:iPhone16,1, software:18.3&gt;\""
        func record(_ source: String, version: String = "18.3", device: String = "", day: Int, value: String) -> String
        {
            let date = "2024-01-0\(day) 08:00:00 +0100"
            return """
                 <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="\(source)" sourceVersion="\(version)" \(device) \
                unit="kg" creationDate="\(date)" startDate="\(date)" endDate="\(date)" value="\(value)">
                  <MetadataEntry key="HKDeviceSerialNumber" value="SN-QX7Z99K1PLANT"/>
                  <MetadataEntry key="HKDeviceName" value="Scale of Zebulonia"/>
                  <MetadataEntry key="Note" value="mail zeb.planted@example.org or call +49 170 5550199"/>
                  <MetadataEntry key="HKExternalUUID" value="PLANTED-UUID-4242"/>
                  <MetadataEntry key="HKWasUserEntered" value="0"/>
                 </Record>

                """
        }
        let planted =
            record("Zebulonia Phone", device: phone, day: 2, value: "71.5")
            + record("ZebuloniaのiPad", day: 3, value: "71.6")
            + record("iPhone (Quirinella)", day: 4, value: "71.7")
            + record("iPod di Zebulonia", day: 5, value: "71.8")
            + record("Zebulonia Tracker", version: "2.0", day: 5, value: "71.9")
        xml = xml.replacingOccurrences(of: "</HealthData>", with: planted + "</HealthData>")
        try xml.write(toFile: xmlPath, atomically: true, encoding: .utf8)

        let cdaPath = export + "/export_cda.xml"
        var cda = try String(contentsOfFile: cdaPath, encoding: .utf8)
        cda = cda.replacingOccurrences(
            of: "<patientRole>",
            with: "<patientRole>\n<id extension=\"MRN-PLANT-9917\"/><addr><streetAddressLine>17 Plantedweg"
                + "</streetAddressLine><city>Xylotown</city></addr>")
        cda = cda.replacingOccurrences(
            of: "<patient>", with: "<patient>\n<name><given>Zebulonia</given><family>Quirinella</family></name>")
        cda = cda.replacingOccurrences(of: "19840616", with: "19870314")
        try cda.write(toFile: cdaPath, atomically: true, encoding: .utf8)

        let patient =
            #""contained":[{"resourceType":"Patient","id":"MRN-PLANT-9917","name":[{"given":["Zebulonia"],"#
            + #""family":"Quirinella"}],"address":[{"line":["17 Plantedweg"],"city":"Xylotown"}],"#
            + #""birthDate":"1987-03-14"}],"performer":[{"display":"Dr. Quirinella"}],"#
        for file in try FileManager.default.contentsOfDirectory(atPath: export + "/clinical-records") {
            let path = export + "/clinical-records/" + file
            let json = try String(contentsOfFile: path, encoding: .utf8)
            try ("{" + patient + json.dropFirst()).write(toFile: path, atomically: true, encoding: .utf8)
        }
        for file in try FileManager.default.contentsOfDirectory(atPath: export + "/electrocardiograms") {
            let path = export + "/electrocardiograms/" + file
            var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
            for index in lines.indices {
                if lines[index].hasPrefix("Name") { lines[index] = "Name,Zebulonia Quirinella" }
                if lines[index].hasPrefix("Date of Birth") { lines[index] = #"Date of Birth,"Mar 14, 1987""# }
                if lines[index].hasPrefix("名前") { lines[index] = "名前,Quirinella Zebulonia" }
                if lines[index].hasPrefix("生年月日") { lines[index] = #"生年月日,"1987/03/14""# }
            }
            try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
    }
}
