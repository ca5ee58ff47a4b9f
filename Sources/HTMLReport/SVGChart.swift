import Foundation

/// Draws one chart as inline SVG: no script, nothing fetched, prints as it shows. Every bar and dot carries
/// its series, bucket and exact value (`data-series`, `data-date`, `data-value`) and a `<title>` a screen
/// reader or a hovering mouse reads.
struct SVGChart {
    static let width = 960.0
    static let height = 240.0
    static let left = 64.0, right = 16.0, top = 14.0, bottom = 34.0
    static let labelCount = 8

    let chart: ReportChart
    let axis: ReportAxis

    private var plotWidth: Double { Self.width - Self.left - Self.right }
    private var plotHeight: Double { Self.height - Self.top - Self.bottom }
    private var slot: Double { plotWidth / Double(max(axis.labels.count, 1)) }

    func svg() -> String {
        let index = Dictionary(axis.labels.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let scale = yScale()
        var out = """
            <svg class="chart" viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" role="img" \
            aria-label="\(ReportFormat.escape(summary()))" data-chart="\(ReportFormat.escape(chart.id))">
            <title>\(ReportFormat.escape(summary()))</title>

            """
        out += grid(scale)
        out += xLabels()
        out += band(index: index, scale: scale)
        switch chart.style {
        case .bars:
            if let first = chart.series.first {
                out += bars(first, colour: first.colour ?? 0, index: index, scale: scale)
            }
            for (offset, series) in chart.series.dropFirst().enumerated() {
                out += line(series, colour: series.colour ?? offset + 1, index: index, scale: scale, dots: true)
            }
        case .stacked:
            out += stacked(index: index, scale: scale)
        case .lines:
            for (offset, series) in chart.series.enumerated() {
                out += line(series, colour: series.colour ?? offset, index: index, scale: scale, dots: true)
            }
        }
        return out + marks(index: index) + "</svg>\n"
    }

    /// The normal band: one grey column per day from its low to its high edge, under the bars and lines.
    private func band(index: [String: Int], scale: Scale) -> String {
        var out = ""
        for day in chart.band {
            guard let position = index[day.label], day.low.isFinite, day.high.isFinite else { continue }
            let top = y(min(day.high, scale.high), scale)
            let bottom = y(max(day.low, scale.low), scale)
            guard bottom > top else { continue }
            out +=
                "<rect class=\"band\" x=\"\(Self.f(Self.left + slot * Double(position)))\" y=\"\(Self.f(top))\" "
                + "width=\"\(Self.f(slot))\" height=\"\(Self.f(bottom - top))\" data-band=\"\(ReportFormat.escape(day.label))\"/>"
        }
        return out.isEmpty ? "" : out + "\n"
    }

    /// A small red triangle above each unusual day.
    private func marks(index: [String: Int]) -> String {
        var out = ""
        for label in chart.marks {
            guard let position = index[label] else { continue }
            let x = Self.left + slot * (Double(position) + 0.5)
            out +=
                "<path class=\"unusual\" d=\"M\(Self.f(x - 4)),\(Self.f(Self.top - 8))h8l-4,7z\" data-unusual=\"\(ReportFormat.escape(label))\">"
                + "<title>\(ReportFormat.escape(label)): unusual day (several signals far from normal)</title></path>\n"
        }
        return out
    }

    /// "Steps per day, 2024-03-24 to 2024-04-06: 14 values from 2,345 to 12,345."
    func summary() -> String {
        let values = chart.series.first?.points.map(\.value) ?? []
        guard let low = values.min(), let high = values.max() else { return chart.title }
        return "\(chart.title) (\(chart.unit)) \(axis.resolution.perText), \(axis.labels.first ?? "") to "
            + "\(axis.labels.last ?? ""): \(values.count) values from \(ReportFormat.number(low)) to \(ReportFormat.number(high))"
    }

    struct Scale {
        var low: Double
        var high: Double
        var step: Double
    }

    /// Bars and stacks start at zero; lines get a range around their values. Ticks at 1, 2 or 5 × 10ⁿ.
    func yScale() -> Scale {
        var values: [Double] = []
        switch chart.style {
        case .stacked:
            var totals: [String: Double] = [:]
            for series in chart.series {
                for point in series.points { totals[point.label, default: 0] += max(point.value, 0) }
            }
            values = Array(totals.values)
        default:
            values = chart.series.flatMap { $0.points.map(\.value) }.filter(\.isFinite)
        }
        var low = values.min() ?? 0
        var high = values.max() ?? 1
        if chart.style != .lines { low = min(0, low) }
        if high <= low { high = low + 1 }
        let step = Self.niceStep((high - low) / 4)
        if chart.style == .lines { low = (low / step).rounded(.down) * step }
        high = (high / step).rounded(.up) * step
        return Scale(low: low, high: high, step: step)
    }

    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let power = pow(10, (log10(raw)).rounded(.down))
        for factor in [1.0, 2, 2.5, 5, 10] where raw <= factor * power { return factor * power }
        return 10 * power
    }

    private func y(_ value: Double, _ scale: Scale) -> Double {
        Self.top + plotHeight * (1 - (value - scale.low) / (scale.high - scale.low))
    }

    private func grid(_ scale: Scale) -> String {
        var out = ""
        var tick = scale.low
        while tick <= scale.high + scale.step / 2 {
            let at = Self.f(y(tick, scale))
            out +=
                "<line class=\"grid\" x1=\"\(Int(Self.left))\" x2=\"\(Int(Self.width - Self.right))\" y1=\"\(at)\" y2=\"\(at)\"/>"
            out +=
                "<text class=\"tick\" x=\"\(Int(Self.left - 6))\" y=\"\(at)\" text-anchor=\"end\" dominant-baseline=\"middle\">"
                + "\(ReportFormat.tick(tick, step: scale.step))</text>\n"
            tick += scale.step
        }
        return out
    }

    private func xLabels() -> String {
        let count = axis.labels.count
        guard count > 0 else { return "" }
        let every = max(1, Int((Double(count) / Double(Self.labelCount)).rounded(.up)))
        var out = ""
        for index in stride(from: 0, to: count, by: every) {
            let x = Self.f(Self.left + slot * (Double(index) + 0.5))
            out +=
                "<text class=\"tick\" x=\"\(x)\" y=\"\(Int(Self.height - 12))\" text-anchor=\"middle\">"
                + "\(ReportFormat.escape(axis.labels[index]))</text>"
        }
        return out + "\n"
    }

    private func element(_ series: ReportSeries, _ point: ReportPoint) -> String {
        "data-series=\"\(ReportFormat.escape(series.key))\" data-date=\"\(ReportFormat.escape(point.label))\" "
            + "data-value=\"\(ReportFormat.exact(point.value))\"><title>\(ReportFormat.escape(point.label)): "
            + "\(ReportFormat.escape(series.name)) \(ReportFormat.number(point.value)) \(ReportFormat.escape(chart.unit))</title>"
    }

    private func bars(_ series: ReportSeries, colour: Int, index: [String: Int], scale: Scale) -> String {
        var out = ""
        let width = Self.f(max(slot * 0.8, 0.5))
        for point in series.points {
            guard let position = index[point.label], point.value.isFinite else { continue }
            let top = y(max(point.value, scale.low), scale)
            let base = y(max(scale.low, 0), scale)
            out +=
                "<rect class=\"s\(colour % 8)\" x=\"\(Self.f(Self.left + slot * (Double(position) + 0.1)))\" "
                + "y=\"\(Self.f(min(top, base)))\" width=\"\(width)\" height=\"\(Self.f(abs(base - top)))\" "
                + element(series, point) + "</rect>\n"
        }
        return out
    }

    private func stacked(index: [String: Int], scale: Scale) -> String {
        var out = ""
        var heights: [String: Double] = [:]
        let width = Self.f(max(slot * 0.8, 0.5))
        for (offset, series) in chart.series.enumerated() {
            let colour = series.colour ?? offset
            for point in series.points {
                guard let position = index[point.label], point.value.isFinite, point.value > 0 else { continue }
                let below = heights[point.label] ?? 0
                heights[point.label] = below + point.value
                let top = y(below + point.value, scale)
                out +=
                    "<rect class=\"s\(colour % 8)\" x=\"\(Self.f(Self.left + slot * (Double(position) + 0.1)))\" "
                    + "y=\"\(Self.f(top))\" width=\"\(width)\" height=\"\(Self.f(y(below, scale) - top))\" "
                    + element(series, point) + "</rect>\n"
            }
        }
        return out
    }

    private func line(_ series: ReportSeries, colour: Int, index: [String: Int], scale: Scale, dots: Bool) -> String {
        let placed = series.points.compactMap { point -> (Double, Double, ReportPoint)? in
            guard let position = index[point.label], point.value.isFinite else { return nil }
            return (Self.left + slot * (Double(position) + 0.5), y(point.value, scale), point)
        }
        guard !placed.isEmpty else { return "" }
        var out =
            "<polyline class=\"line l\(colour % 8)\" points=\""
            + placed.map { "\(Self.f($0.0)),\(Self.f($0.1))" }.joined(separator: " ") + "\"/>\n"
        if dots {
            let radius = placed.count > 120 ? "1.2" : "2.5"
            for (x, y, point) in placed {
                out +=
                    "<circle class=\"d\(colour % 8)\" cx=\"\(Self.f(x))\" cy=\"\(Self.f(y))\" r=\"\(radius)\" "
                    + element(series, point) + "</circle>\n"
            }
        }
        return out
    }

    /// Coordinates with one decimal: enough on any screen or paper, and half the bytes of full precision.
    static func f(_ value: Double) -> String { String(format: "%.1f", value) }
}
