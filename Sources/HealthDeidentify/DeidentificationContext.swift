import Foundation
import HealthSQLite

/// What the rules need to know of the original before copying: the new name of every source, the words of the
/// people's names the export itself contains, the metadata keys, the routes' first points, the export's year.
/// All of it small (one entry per source, key, route or name word).
struct DeidentificationContext {
    let key: DeidentificationKey
    let options: Deidentifier.Options
    let names: SourceNames
    /// Original source name → the copy's.
    let sourceNames: [String: String]
    /// `metadata_keys` by id.
    let metadataKeys: [Int64: String]
    /// Each route's first point and keyed angle, for `--routes relative`.
    let routeFrames: [Int64: RelativeRoute]
    /// The year of the newest export (ages are counted at it).
    let exportYear: Int
    /// Rows of the tables that stay empty, for the record.
    let sourceRowCounts: [String: Int]

    /// Labels of the ECG header's name line, in the languages the Health app writes.
    static let nameLabels: Set<String> = [
        "Name", "Nom", "Nombre", "Nome", "Naam", "Namn", "Navn", "Nimi", "Imię", "İsim", "Имя", "名前", "氏名", "姓名",
        "이름",
    ]
    /// Words that are never taken for a person's name (they are in device and app names).
    static let commonWords: Set<String> = [
        "apple", "watch", "iphone", "ipad", "ipod", "airpods", "phone", "health", "ultra", "mini", "max", "pro", "air",
        "the", "von", "van", "del", "della",
    ]

    static func read(_ connection: SQLiteConnection, key: DeidentificationKey, options: Deidentifier.Options) throws
        -> DeidentificationContext
    {
        var words = Set<String>()
        func addName(_ text: String) {
            for word in SourceNames.words(text) where word.count >= 3 && !commonWords.contains(word) {
                if !word.allSatisfy(\.isNumber) { words.insert(word) }
            }
        }
        // ECG headers: the line labelled Name (the first line), in any language.
        let ecg = try connection.prepare(
            "SELECT json_extract(h.value, '$[0]'), json_extract(h.value, '$[1]'), h.key FROM ecg_recordings AS e, "
                + "json_each(e.header_json) AS h WHERE json_valid(e.header_json)")
        try ecg.forEachRow { row in
            guard let value = row.text(1) else { return }
            if row.integer(2) == 0 || nameLabels.contains(row.text(0) ?? "") { addName(value) }
        }
        // FHIR: every name (given, family, text) and every display of a person reference.
        let fhir = try connection.prepare(
            """
            SELECT j.value FROM clinical_records AS c, json_tree(c.resource_json) AS j
            WHERE json_valid(c.resource_json) AND j.type = 'text' AND (
                (j.fullkey LIKE '%name%' AND (j.fullkey LIKE '%.given%' OR j.fullkey LIKE '%.family%'
                    OR j.fullkey LIKE '%.text' OR j.fullkey LIKE '%.prefix%' OR j.fullkey LIKE '%.suffix%'))
                OR (j.fullkey LIKE '%.display' AND (j.fullkey LIKE '%subject%' OR j.fullkey LIKE '%patient%'
                    OR j.fullkey LIKE '%performer%' OR j.fullkey LIKE '%practitioner%' OR j.fullkey LIKE '%recorder%'
                    OR j.fullkey LIKE '%asserter%' OR j.fullkey LIKE '%requester%')))
            """)
        try fhir.forEachRow { row in row.text(0).map(addName) }
        // CDA: the patient's (and any other) <given>, <family> near the start of the document.
        let cda = try connection.prepare(
            "SELECT CAST(substr(content, 1, 1048576) AS TEXT) FROM documents WHERE content IS NOT NULL")
        try cda.forEachRow { row in
            for name in Self.cdaNames(row.text(0) ?? "") { addName(name) }
        }
        // Owners of possessive source and device names ("Jonathan’s iPhone" → jonathan).
        let sourceRows = try connection.query(
            "SELECT name, device_model, device_manufacturer, version, device_software, device_name FROM sources ORDER BY id"
        )
        for row in sourceRows {
            for name in [row[0].text, row[5].text].compactMap({ $0 }) {
                guard let rest = SourceNames.deviceKind(in: name) ?? SourceNames.withoutOwner(name) else { continue }
                let restWords = Set(SourceNames.words(rest))
                addName(SourceNames.words(name).filter { !restWords.contains($0) }.joined(separator: " "))
            }
        }
        let names = SourceNames(nameWords: words, key: key, keepUnknownApps: options.keepUnknownApps)
        var sourceNames: [String: String] = [:]
        for row in sourceRows {
            guard let name = row[0].text, sourceNames[name] == nil else { continue }
            sourceNames[name] = names.sourceName(
                name, deviceModel: row[1].text, manufacturer: row[2].text, version: row[3].text, software: row[4].text)
        }
        var metadataKeys: [Int64: String] = [:]
        let keys = try connection.prepare("SELECT id, key FROM metadata_keys")
        try keys.forEachRow { metadataKeys[$0.integer(0)] = $0.text(1) ?? "" }
        var routeFrames: [Int64: RelativeRoute] = [:]
        if options.routes == .relative {
            let origins = try connection.prepare(
                """
                SELECT p.route_id, p.latitude, p.longitude FROM route_point_rows AS p
                JOIN (SELECT route_id, min(seq) AS seq FROM route_point_rows GROUP BY route_id) AS f
                    ON f.route_id = p.route_id AND f.seq = p.seq
                """)
            try origins.forEachRow { row in
                let route = row.integer(0)
                routeFrames[route] = RelativeRoute(
                    origin: (row.double(1), row.double(2)), angle: key.routeAngle(String(route)))
            }
        }
        let newestExport = try connection.scalar("SELECT max(export_date) FROM import_runs").text
        let exportYear =
            newestExport.flatMap { Int($0.prefix(4)) }
            ?? Calendar(identifier: .gregorian).component(
                .year, from: Date())
        var counts: [String: Int] = [:]
        for table in ["clinical_records", "documents", "route_point_rows", "metadata_rows"] {
            counts[table] = Int(try connection.scalar("SELECT count(*) FROM \"\(table)\"").integer ?? 0)
        }
        return DeidentificationContext(
            key: key, options: options, names: names, sourceNames: sourceNames, metadataKeys: metadataKeys,
            routeFrames: routeFrames, exportYear: exportYear, sourceRowCounts: counts)
    }

    /// The text of `<given>`, `<family>`, `<prefix>` and `<suffix>` elements (any namespace prefix).
    static func cdaNames(_ text: String) -> [String] {
        var found: [String] = []
        for element in ["given", "family", "prefix", "suffix"] {
            var searchStart = text.startIndex
            while let open = text.range(of: element, range: searchStart..<text.endIndex) {
                searchStart = open.upperBound
                // `<given>` or `<cda:given …>`, not `</given>` or an attribute named so.
                guard open.lowerBound > text.startIndex else { continue }
                let before = text[text.index(before: open.lowerBound)]
                guard before == "<" || before == ":",
                    let close = text.range(of: ">", range: open.upperBound..<text.endIndex),
                    let end = text.range(of: "</", range: close.upperBound..<text.endIndex)
                else { continue }
                if before == ":" {
                    let tagStart = text[..<open.lowerBound].lastIndex(of: "<")
                    guard let tagStart, text[text.index(after: tagStart)] != "/" else { continue }
                }
                found.append(String(text[close.upperBound..<end.lowerBound]))
                searchStart = end.lowerBound
            }
        }
        return found
    }
}
