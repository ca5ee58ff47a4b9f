import HealthModel

/// Turns a `ReportModel` into one self-contained HTML page: styles inline, charts as inline SVG, no script,
/// no link to anything outside the page, and a Content-Security-Policy that forbids fetching anything even
/// if a future change slipped a URL in. Pure: testable without a database.
enum ReportRenderer {
    static func html(_ model: ReportModel) -> String {
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="healthetl \(HealthETLVersion.current)">
            <title>\(ReportFormat.escape(title(model.header)))</title>
            <style>\(style)</style>
            </head>
            <body>

            """
        out += header(model)
        for content in model.sections { out += section(content, axis: model.axis) }
        out += """
            <footer>Written by healthetl \(HealthETLVersion.current) from \(ReportFormat.escape(model.header.databaseName)) \
            at \(ReportFormat.escape(model.header.generatedAt)). Private health data: keep this file to yourself.</footer>
            </body>
            </html>

            """
        return out
    }

    static func title(_ header: ReportHeader) -> String {
        guard let first = header.firstDay, let last = header.lastDay else { return "Health report" }
        return "Health report \(first) – \(last)"
    }

    private static func header(_ model: ReportModel) -> String {
        let header = model.header
        var out = "<header data-section=\"header\">\n<h1>\(ReportFormat.escape(title(header)))</h1>\n"
        guard let first = header.firstDay, let last = header.lastDay else {
            let asked = [header.requestedFrom.map { "from \($0)" }, header.requestedTo.map { "before \($0)" }]
                .compactMap { $0 }.joined(separator: " ")
            out +=
                "<p class=\"empty\" data-empty=\"true\">No data \(asked.isEmpty ? "in this database" : ReportFormat.escape(asked)): "
                + "the database has no daily statistics\(asked.isEmpty ? "" : " in that range"). Import an export, or choose "
                + "another range.</p>\n"
            return out + lastImport(header) + "</header>\n"
        }
        let days = (Timestamp.dayNumber(ofDate: last) ?? 0) - (Timestamp.dayNumber(ofDate: first) ?? 0) + 1
        out +=
            "<p class=\"period\" data-first-day=\"\(ReportFormat.escape(first))\" data-last-day=\"\(ReportFormat.escape(last))\">"
            + "\(ReportFormat.escape(first)) to \(ReportFormat.escape(last)): \(ReportFormat.grouped(days)) days, "
            + "charts \(model.axis.resolution.perText); days in \(ReportFormat.escape(header.timeZone)).</p>\n"
        if !model.sections.isEmpty {
            out +=
                "<nav>"
                + model.sections.map {
                    "<a href=\"#\($0.section.rawValue)\">\($0.section.title)</a>"
                }.joined(separator: " · ") + "</nav>\n"
        }
        if !header.sources.isEmpty {
            out +=
                "<details class=\"sources\"><summary>Sources that contributed: \(header.sources.count)</summary>\n"
                + "<table><thead><tr><th>source</th><th>kind</th><th>days</th></tr></thead><tbody>\n"
            for source in header.sources {
                out +=
                    "<tr data-source=\"\(ReportFormat.escape(source.name))\"><td>\(ReportFormat.escape(source.name))</td>"
                    + "<td>\(source.kind.rawValue)</td><td class=\"number\">\(ReportFormat.grouped(source.days))</td></tr>\n"
            }
            out += "</tbody></table></details>\n"
        }
        return out + lastImport(header) + "</header>\n"
    }

    private static func lastImport(_ header: ReportHeader) -> String {
        guard let run = header.lastImport else { return "" }
        var out = "<p class=\"import\">Last import \(ReportFormat.escape(run.finishedAt ?? "?"))"
        if let exportDate = run.exportDate { out += ", of the export made \(ReportFormat.escape(exportDate))" }
        guard !run.warnings.isEmpty else { return out + "; nothing flagged.</p>\n" }
        out +=
            ".</p>\n<details class=\"warnings\"><summary>What the import flagged: \(run.warnings.count) kinds</summary><ul>\n"
        for warning in run.warnings {
            out += "<li>\(ReportFormat.escape(warning.message)): \(ReportFormat.grouped(warning.count))</li>\n"
        }
        return out + "</ul></details>\n"
    }

    private static func section(_ content: ReportSectionContent, axis: ReportAxis) -> String {
        let name = content.section.rawValue
        var out = "<section id=\"\(name)\" data-section=\"\(name)\">\n<h2>\(content.section.title)</h2>\n"
        for chart in content.charts where !chart.isEmpty {
            out +=
                "<figure id=\"chart-\(ReportFormat.escape(chart.id))\">\n<figcaption><strong>"
                + "\(ReportFormat.escape(chart.title))</strong> (\(ReportFormat.escape(chart.unit)))</figcaption>\n"
            out += SVGChart(chart: chart, axis: axis).svg()
            out += legend(chart) + "<p class=\"note\">\(ReportFormat.escape(chart.note))</p>\n</figure>\n"
        }
        for table in content.tables { out += self.table(table) }
        if !content.routes.isEmpty { out += routes(content.routes) }
        return out + "</section>\n"
    }

    private static func legend(_ chart: ReportChart) -> String {
        guard chart.series.count > 1 else { return "" }
        let lineFrom = chart.style == .bars ? 1 : chart.style == .lines ? 0 : Int.max
        return "<p class=\"legend\">"
            + chart.series.enumerated().map { offset, series in
                let colour = (series.colour ?? offset) % 8
                let kind = offset >= lineFrom ? "key line-key l\(colour)" : "key s\(colour)"
                return "<span><i class=\"\(kind)\"></i>\(ReportFormat.escape(series.name))</span>"
            }.joined(separator: " ") + "</p>\n"
    }

    private static func table(_ table: ReportTable) -> String {
        var out =
            "<table id=\"\(ReportFormat.escape(table.id))\"><caption>\(ReportFormat.escape(table.caption))</caption>\n<thead><tr>"
        out += table.header.map { "<th>\(ReportFormat.escape($0))</th>" }.joined() + "</tr></thead><tbody>\n"
        for row in table.rows {
            out += "<tr>" + row.map { "<td>\(ReportFormat.escape($0))</td>" }.joined() + "</tr>\n"
        }
        return out + "</tbody></table>\n"
    }

    /// Routes as outlines only: no map tiles, which would have to be fetched.
    private static func routes(_ routes: [ReportRoute]) -> String {
        var out = "<h3>Latest routes</h3>\n<div class=\"routes\">\n"
        for route in routes {
            let points = route.points.map { "\(SVGChart.f($0.x * 100)),\(SVGChart.f($0.y * 100))" }.joined(
                separator: " ")
            out +=
                "<figure class=\"route\" data-workout=\"\(route.workoutID)\" data-points=\"\(route.storedPoints)\">"
                + "<svg viewBox=\"-4 -4 108 108\" role=\"img\" aria-label=\"Route of \(ReportFormat.escape(route.title))\">"
                + "<title>Route of \(ReportFormat.escape(route.title)) (\(route.storedPoints) points)</title>"
                + "<polyline points=\"\(points)\"/></svg><figcaption>\(ReportFormat.escape(route.title))</figcaption></figure>\n"
        }
        return out + "</div>\n"
    }

    static let style = """
        .band{fill:#8e8e93;opacity:.18}.unusual{fill:#d70015}\
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d1d1f;background:#fff;\
        max-width:1000px;margin:0 auto;padding:16px 20px}
        h1{font-size:24px;margin:8px 0}h2{font-size:20px;border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:28px}
        h3{font-size:15px}nav a{color:#0a60c2}p{margin:6px 0}.note,.import,footer{color:#555;font-size:12px}
        figure{margin:14px 0;break-inside:avoid}figcaption{font-size:14px}svg.chart{width:100%;height:auto;display:block}
        .grid{stroke:#e3e3e3;stroke-width:1}.tick{font-size:11px;fill:#666}
        .line{fill:none;stroke-width:1.6}.empty{font-size:16px;padding:12px;background:#f4f4f4;border-radius:6px}
        .s0{fill:#2f7ed8}.s1{fill:#0d3c78}.s2{fill:#8fc1f2}.s3{fill:#5b9bd5}.s4{fill:#c0c8d4}
        .s5{fill:#f08a24}.s6{fill:#9b59b6}.s7{fill:#27ae60}
        .d0{fill:#2f7ed8}.d1{fill:#e4572e}.d2{fill:#27ae60}.d3{fill:#9b59b6}.d4{fill:#555}.d5{fill:#f08a24}
        .d6{fill:#0d3c78}.d7{fill:#c0392b}
        .l0{stroke:#2f7ed8}.l1{stroke:#e4572e}.l2{stroke:#27ae60}.l3{stroke:#9b59b6}.l4{stroke:#555}.l5{stroke:#f08a24}
        .l6{stroke:#0d3c78}.l7{stroke:#c0392b}
        .legend span{margin-right:14px;font-size:12px}.key{display:inline-block;width:12px;height:12px;margin-right:4px;\
        vertical-align:-1px;border-radius:2px}.line-key{height:3px;vertical-align:3px;border-top:3px solid}
        .key.s0{background:#2f7ed8}.key.s1{background:#0d3c78}.key.s2{background:#8fc1f2}.key.s3{background:#5b9bd5}
        .key.s4{background:#c0c8d4}.key.s5{background:#f08a24}.key.s6{background:#9b59b6}.key.s7{background:#27ae60}
        .line-key.l0{border-color:#2f7ed8}.line-key.l1{border-color:#e4572e}.line-key.l2{border-color:#27ae60}
        .line-key.l3{border-color:#9b59b6}.line-key.l4{border-color:#555}.line-key.l5{border-color:#f08a24}
        table{border-collapse:collapse;margin:12px 0;font-size:13px}caption{text-align:left;font-weight:600;padding:4px 0}
        th,td{border-bottom:1px solid #e5e5e5;padding:3px 10px 3px 0;text-align:left;vertical-align:top}td.number{text-align:right}
        .routes{display:flex;flex-wrap:wrap;gap:10px}.route{width:150px;margin:0}.route svg{width:150px;height:150px;\
        background:#f6f8fa;border-radius:6px}.route polyline{fill:none;stroke:#e4572e;stroke-width:1.5;\
        stroke-linejoin:round;stroke-linecap:round}.route figcaption{font-size:11px;color:#555}
        footer{margin-top:30px;border-top:1px solid #ddd;padding-top:6px}
        @media print{body{max-width:none;padding:0}nav{display:none}details{display:block}a{color:inherit}}
        """
}
