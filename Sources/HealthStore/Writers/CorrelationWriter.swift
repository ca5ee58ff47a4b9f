import HealthModel
import HealthSQLite

/// `correlations` and `correlation_samples`: a correlation and the links to its children, which are the
/// top-level samples they repeat (`SampleWriter.correlationChild`). Owns the correlations' row ids; what a
/// write did (its children's included) goes into the caller's `WriteReport`.
final class CorrelationWriter {
    private(set) var lastID: Int64
    private let correlation: TableInsert
    private let link: TableInsert
    private let common: CommonRows
    private let session: ReimportSession
    private let samples: SampleWriter

    init(
        statements: SchemaStatements, lastIDs: LastRowIDs, common: CommonRows, session: ReimportSession,
        samples: SampleWriter
    ) {
        lastID = lastIDs[.correlations]
        correlation = statements.correlation
        link = statements.correlationSample
        self.common = common
        self.session = session
        self.samples = samples
    }

    func write(_ correlation: Correlation, into report: inout WriteReport) throws {
        let childIdentities = correlation.children.map(SampleIdentity.fingerprint)
        let identity = SampleIdentity.fingerprint(correlation, childIdentities: childIdentities)
        // Matching is asked at once (it decides whether anything is written); what it met is reported.
        if let existing = try session.matchNested(.correlations, identity: identity) {
            try session.markChildrenSeen(ofCorrelation: existing, into: &report)
            report.countUnchanged(
                .correlations, type: correlation.type, identity: identity, start: correlation.startDate,
                end: correlation.endDate, creation: correlation.creationDate)
            return
        }
        lastID += 1
        let id = lastID
        let header = try common.headerColumns(
            id: id, type: correlation.type, source: correlation.source, start: correlation.startDate,
            end: correlation.endDate, creation: correlation.creationDate, metadata: correlation.metadata,
            into: &report)
        try self.correlation.run(
            columns: header + [
                ("flags", .integer(Int64(correlation.flags.rawValue))), ("xml_line", .integer(Int64(correlation.line))),
                ("identity", .integer(identity)),
            ])
        report.count(.correlations)
        report.countInserted(
            .correlations, type: correlation.type, identity: identity, start: correlation.startDate,
            end: correlation.endDate, creation: correlation.creationDate, replacing: false)
        try common.writeMetadata(correlation.metadata, parent: .correlations, id: id, into: &report)
        for (child, identity) in zip(correlation.children, childIdentities) {
            guard let child = try samples.correlationChild(child, identity: identity, into: &report) else { continue }
            try link.run([
                "correlation_id": .integer(id),
                "sample_table": .text(child.table.name),
                "sample_id": .integer(child.id),
            ])
            report.count(.correlationSamples)
        }
    }
}
