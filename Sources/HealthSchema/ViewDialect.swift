/// What differs between the views in SQLite and the same views in PostgreSQL, so that each view is written once
/// (`Schema.views(in:)`) and both back ends show the same rows: where the tables are, whether every row
/// belongs to a person, and the few expressions the two spell differently. `.sqlite` is here; PostgreSQL's
/// is `HealthPostgres`'s.
package struct ViewDialect: Sendable {
    /// Put before every table and view name: `""` in SQLite, `healthetl.` in PostgreSQL.
    package var schema: String
    /// Every row has a `person` column: each view shows it first, and every join and look-up stays within the
    /// row's person (ids are per person there).
    package var person: Bool
    /// SQL for integer seconds since 1970 as `2019-06-18T01:07:11Z`.
    package var instantText: @Sendable (_ seconds: String) -> String
    /// SQL for integer centiseconds as `2019-06-18T01:07:11.94Z`, with hundredths only when there are any.
    package var centisecondText: @Sendable (_ centis: String) -> String
    /// SQL for an offset in seconds as `-04:00`.
    package var offsetText: @Sendable (_ seconds: String) -> String
    /// SQL for the hours between two instants' text.
    package var hoursBetween: @Sendable (_ start: String, _ end: String) -> String
    /// A name looked up by id (a sample's source) is a LEFT JOIN rather than a subquery in the column list.
    package var lookupsAsJoins = false

    package init(
        schema: String, person: Bool, instantText: @escaping @Sendable (String) -> String,
        centisecondText: @escaping @Sendable (String) -> String, offsetText: @escaping @Sendable (String) -> String,
        hoursBetween: @escaping @Sendable (String, String) -> String, lookupsAsJoins: Bool = false
    ) {
        self.schema = schema
        self.person = person
        self.instantText = instantText
        self.centisecondText = centisecondText
        self.offsetText = offsetText
        self.hoursBetween = hoursBetween
        self.lookupsAsJoins = lookupsAsJoins
    }

    package static let sqlite = ViewDialect(
        schema: "", person: false, instantText: Schema.instantText, centisecondText: Schema.centisecondText,
        offsetText: Schema.offsetText,
        hoursBetween: { start, end in "(julianday(\(end)) - julianday(\(start))) * 24" })

    /// A table or view by its qualified name.
    package func table(_ name: String) -> String { schema + name }

    /// `alias.person, ` (`person, ` without an alias) where rows have a person, else nothing.
    package func personColumn(_ alias: String? = nil) -> String {
        guard person else { return "" }
        return (alias.map { $0 + "." } ?? "") + "person, "
    }

    /// ` AND inner.person = outer.person` where rows have a person, else nothing.
    package func samePerson(_ inner: String, _ outer: String) -> String {
        person ? " AND \(inner).person = \(outer).person" : ""
    }
}
