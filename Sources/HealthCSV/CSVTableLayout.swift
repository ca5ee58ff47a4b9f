import HealthSchema

/// How one table of the schema becomes a CSV file: its columns in schema order (the header), which of them
/// hold UTC instants, and where a row's UTC offset comes from.
package struct CSVTableLayout {
    let table: SchemaTable
    /// Per column: a UTC instant (`2024-03-31T06:15:00Z`), rewritten in the row's offset.
    let isInstant: [Bool]
    /// SQL for the row's offset (`+01:00`), selected after the table's columns; nil: instants stay in UTC.
    let offsetExpression: String?

    init(_ table: SchemaTable) {
        self.table = table
        isInstant = table.columns.map(Self.isInstantColumn)
        if !isInstant.contains(true) {
            offsetExpression = nil
        } else if table.columnNames.contains("utc_offset") {
            offsetExpression = "t.\"utc_offset\""
        } else {
            offsetExpression = Self.inheritedOffsets[table.name]
        }
    }

    /// The columns declared BLOB (`documents.content`, which can be hundreds of megabytes).
    var blobColumns: [Int] { table.columns.indices.filter { table.columns[$0].declaration.hasPrefix("BLOB") } }

    /// Where the extra result columns are: after the table's columns and the offset, the rowid, then per
    /// blob column its length (NULL when the value is not a blob). Only when the table has blob columns.
    var rowidResultColumn: Int { table.columns.count + (offsetExpression == nil ? 0 : 1) }
    func blobLengthResultColumn(_ blobIndex: Int) -> Int { rowidResultColumn + 1 + blobIndex }

    /// Columns named explicitly (not `*`), so the file has the schema's order even where a database's column
    /// order differs; rows in rowid order, which is `id` order where the table has one (`rowOrders` names
    /// the exceptions).
    ///
    /// A blob is not selected: stepping to a row would read it whole. The query selects its length instead
    /// (which SQLite answers without reading the value), and the exporter reads it in pieces through
    /// incremental blob I/O by rowid.
    var selectSQL: String {
        let blobs = blobColumns
        var columns = table.columnNames.enumerated().map { index, name in
            let column = "t.\"\(name)\""
            return blobs.contains(index) ? "CASE WHEN typeof(\(column)) = 'blob' THEN NULL ELSE \(column) END" : column
        }
        columns += offsetExpression.map { [$0] } ?? []
        if !blobs.isEmpty {
            columns.append("t.rowid")
            for index in blobs {
                let column = "t.\"\(table.columnNames[index])\""
                columns.append("CASE WHEN typeof(\(column)) = 'blob' THEN length(\(column)) END")
            }
        }
        let order = Self.rowOrders[table.name] ?? "t.rowid"
        return "SELECT " + columns.joined(separator: ", ") + " FROM \"\(table.name)\" AS t"
            + (order.isEmpty ? "" : " ORDER BY " + order)
    }

    /// Tables whose rowids say nothing about their rows, in an order of their own. Rollups are rebuilt by
    /// parts on every import (a new database's by two reading threads at once), so their rowids follow
    /// whichever part was computed first: by type, then period from the shortest, start and statistic, the
    /// file is the same for the same rollups.
    ///
    /// The views of compact tables have no rowid: the sample views are in `id` order; metadata, beats and
    /// points ("" below: no ORDER BY) in the order their compact table holds them, which a plain scan of the
    /// view follows and which is the order they were written in, as in a table.
    static let rowOrders: [String: String] = [
        "cumulative_samples": "t.id", "discrete_samples": "t.id", "category_samples": "t.id",
        "metadata": "", "hrv_beats": "", "route_points": "",
        "rollups":
            "t.type, CASE t.period WHEN 'hour' THEN 0 WHEN 'day' THEN 1 WHEN 'week' THEN 2 WHEN 'month' THEN 3 END, "
            + "t.period, t.period_start, t.statistic",
        // Recomputed by parts like the rollups.
        "baselines": "t.column_name, t.date",
    ]

    /// An instant is a TEXT column named `…_date` (except `local_date`, a calendar day) or documented as UTC
    /// (`date`, `time`, `date_issued`, `started_at`). Calendar days (`local_date`, `activity_summaries.date`)
    /// and offsets are not instants. A value that does not parse as a UTC instant is written as it is.
    static func isInstantColumn(_ column: SchemaTable.Column) -> Bool {
        guard column.declaration.hasPrefix("TEXT"), !column.name.contains("offset"), column.name != "local_date"
        else { return false }
        return column.name.hasSuffix("_date") || column.doc.contains("UTC")
    }

    /// Tables without a `utc_offset` of their own take their parent's: the offset is the one the export was
    /// written in, so a workout's events and route points share the workout's, an HRV record's beats the
    /// record's. The lookups go by primary key, one per row.
    static let inheritedOffsets: [String: String] = [
        "workout_events": workoutOffset,
        "workout_activities": workoutOffset,
        "workout_statistics": workoutOffset,
        "workout_routes": workoutOffset,
        "route_points":
            "(SELECT w.utc_offset FROM workout_routes AS r JOIN workouts AS w ON w.id = r.workout_id "
            + "WHERE r.id = t.route_id)",
        "hrv_beats":
            "(SELECT \(Schema.offsetText("s.utc_offset_seconds")) FROM discrete_rows AS s WHERE s.id = t.sample_id)",
        // A deleted row keeps its offset in its archived copy.
        "deleted_samples": "(CASE WHEN json_valid(t.row_json) THEN json_extract(t.row_json, '$.utc_offset') END)",
    ]

    private static let workoutOffset = "(SELECT w.utc_offset FROM workouts AS w WHERE w.id = t.workout_id)"

    /// Tables with instants but no offset to show them in: written in UTC (`Z`; the spreadsheet flavour shows
    /// UTC wall-clock time). Health Records, prescriptions, import runs and anchors carry no offset of their own;
    /// a rollup's `label` already is its period in local time.
    static let tablesInUTC: Set<String> = [
        "clinical_records", "vision_prescriptions", "import_runs", "anchors", "rollups",
    ]
}
