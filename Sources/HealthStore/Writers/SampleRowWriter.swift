import HealthModel
import HealthSQLite
import HealthSchema

/// One compact sample table (`cumulative_rows`, `discrete_rows` or `category_rows`): the INSERT of its rows,
/// bound by column name, and the look-up by (type, start, identity) that a re-import and a record without a
/// start use. Dates are formatted into the writer's own scratch memory and bound without a `String`.
struct SampleRowWriter {
    let table: TrackedTable
    /// `INSERT OR IGNORE`: a row whose (type, start, identity) is taken is not stored (`insert` says so).
    private let insert: TableInsert
    /// The id of the row with a type, start and identity (?1 type id, ?2 start, ?3 identity).
    private let find: SQLiteStatement
    /// The ids and identities of a type's rows that start in a range (?1 type id, ?2 first start, ?3 the end):
    /// a range of the UNIQUE (type_id, start_date, identity) index, which holds the id too.
    private let findStarting: SQLiteStatement
    private let id, typeID, sourceID, start, end, creation, offset, localDate, value, unit, rawValue, rawUnit,
        flags, line, identity, origin: Int32
    private var utc = TimestampFormatting.CachedUTCWriter()
    /// Five 32-byte slots: the insert's start and local date, the look-up's start, the range's two ends. Each
    /// stays as bound until its statement has been stepped.
    private let scratch = ScratchBuffer(byteCount: 5 * 32)

    init(_ connection: SQLiteConnection, table: TrackedTable) throws {
        self.table = table
        insert = try TableInsert(connection, table: table.storageName, verb: "INSERT OR IGNORE")
        find = try connection.prepare(
            "SELECT id FROM \"\(table.storageName)\" WHERE type_id = ?1 AND start_date IS ?2 AND identity = ?3")
        findStarting = try connection.prepare(
            "SELECT identity, id FROM \"\(table.storageName)\" WHERE type_id = ?1 AND start_date >= ?2 "
                + "AND start_date < ?3")
        id = try insert.parameter("id")
        typeID = try insert.parameter("type_id")
        sourceID = try insert.parameter("source_id")
        start = try insert.parameter("start_date")
        end = try insert.parameter("end_seconds")
        creation = try insert.parameter("creation_seconds")
        offset = try insert.parameter("utc_offset_seconds")
        localDate = try insert.parameter("local_date")
        value = try insert.parameter("value")
        unit = try insert.parameter("unit")
        rawValue = try insert.parameter("raw_value")
        rawUnit = try insert.parameter("raw_unit")
        flags = try insert.parameter("flags")
        line = try insert.parameter("xml_line")
        identity = try insert.parameter("identity")
        origin = try insert.parameter("origin")
    }

    /// Binds every column of `sample`'s row but the identity (`store` binds it), from a `Sample` or a batch's
    /// columns alike. The value columns keep what the export said where the stages changed it: `raw_value` and
    /// `raw_unit` are stored only where they differ from `value` and `unit` (the views show those otherwise).
    mutating func bind<Fields: SampleFields>(
        _ sample: Fields, id rowID: Int64, typeID type: Int64, sourceID source: Int64, localDay: Int32?,
        flags rowFlags: Int64, origin rowOrigin: RowOrigin
    ) {
        bindCommon(
            id: rowID, typeID: type, sourceID: source, start: sample.startDate, end: sample.endDate,
            creation: sample.creationDate, localDay: localDay, flags: rowFlags, line: sample.line, origin: rowOrigin)
        let statement = insert.statement
        if table == .category {
            sample.bindTextValue(statement, value)
            statement.bindNull(unit)
            if let raw = sample.rawTextValue, raw != sample.textValue {
                statement.bind(rawValue, raw)
            } else {
                statement.bindNull(rawValue)
            }
            statement.bindNull(rawUnit)
        } else {
            let number = sample.value
            statement.bind(value, number)
            statement.bind(unit, sample.unit)
            if let raw = sample.rawValue ?? number {
                if raw == number { statement.bindNull(rawValue) } else { statement.bind(rawValue, raw) }
            } else {
                sample.bindTextValue(statement, rawValue)
            }
            if let exported = sample.rawUnitOtherThanUnit {
                statement.bind(rawUnit, exported)
            } else {
                statement.bindNull(rawUnit)
            }
        }
    }

    /// The columns every form binds alike.
    private mutating func bindCommon(
        id rowID: Int64, typeID type: Int64, sourceID source: Int64, start startDate: Timestamp?,
        end endDate: Timestamp?, creation creationDate: Timestamp?, localDay: Int32?, flags rowFlags: Int64,
        line rowLine: Int32, origin rowOrigin: RowOrigin
    ) {
        let statement = insert.statement
        statement.bind(id, rowID)
        statement.bind(typeID, type)
        statement.bind(sourceID, source)
        bindStart(statement, start, startDate, slot: 0)
        bindSeconds(statement, end, endDate)
        bindSeconds(statement, creation, creationDate)
        if let any = startDate ?? endDate ?? creationDate {
            statement.bind(offset, Int64(any.offsetSeconds))
        } else {
            statement.bindNull(offset)
        }
        if let localDay {
            let slot = scratch.bytes + 32
            TimestampFormatting.writeDay(localDay, into: slot)
            statement.bindStaticText(localDate, slot, count: TimestampFormatting.dateLength)
        } else {
            statement.bindNull(localDate)
        }
        statement.bind(flags, rowFlags)
        statement.bind(line, Int64(rowLine))
        statement.bind(origin, rowOrigin.rawValue)
    }

    /// Stores the bound row with `identity`; false when a row with the same type, start and identity is
    /// there already (nothing was stored).
    func store(identity rowIdentity: Int64, _ connection: SQLiteConnection) throws -> Bool {
        insert.statement.bind(identity, rowIdentity)
        try insert.statement.run()
        return connection.changes > 0
    }

    /// The id of the row with `type`, `start` and `identity`, if there is one.
    mutating func find(typeID type: Int64, start startDate: Timestamp?, identity rowIdentity: Int64) throws -> Int64? {
        find.bind(1, type)
        bindStart(find, 2, startDate, slot: 2)
        find.bind(3, rowIdentity)
        return try find.firstInteger()
    }

    /// The (identity, id) of every row of `type` that starts in `seconds` (UTC), into `found` (emptied first).
    /// The range must lie in years 1000–9999, where the start's text sorts like the instant.
    mutating func rows(typeID type: Int64, starting seconds: Range<Int64>, into found: inout [(Int64, Int64)])
        throws
    {
        found.removeAll(keepingCapacity: true)
        findStarting.bind(1, type)
        bindStart(findStarting, 2, Timestamp(seconds: seconds.lowerBound, offsetSeconds: 0), slot: 3)
        bindStart(findStarting, 3, Timestamp(seconds: seconds.upperBound, offsetSeconds: 0), slot: 4)
        try findStarting.forEachRow { found.append(($0.integer(0), $0.integer(1))) }
    }

    private mutating func bindStart(_ statement: SQLiteStatement, _ index: Int32, _ instant: Timestamp?, slot: Int) {
        guard let instant else {
            statement.bindNull(index)
            return
        }
        let bytes = scratch.bytes + slot * 32
        utc.write(instant.seconds, into: bytes)
        statement.bindStaticText(index, bytes, count: TimestampFormatting.utcLength)
    }

    private func bindSeconds(_ statement: SQLiteStatement, _ index: Int32, _ instant: Timestamp?) {
        if let instant { statement.bind(index, instant.seconds) } else { statement.bindNull(index) }
    }
}

/// Memory for formatting dates, owned by an object so it is freed even when the sink's init throws (a
/// property allocated in place would leak then: deinit does not run for a half-initialised class).
final class ScratchBuffer {
    let bytes: UnsafeMutablePointer<UInt8>
    init(byteCount: Int) { bytes = .allocate(capacity: byteCount) }
    deinit { bytes.deallocate() }
}
