/// What a report shows, as plain values: the reader fills it from a database, the renderer turns it into
/// HTML. Every number here is a number of the database (a rollup row, an Activity summary, a workout), so a
/// test can compare the page with the database directly.
public struct ReportModel: Sendable, Equatable {
    public var header: ReportHeader
    /// The buckets every chart's x axis has, oldest first (days, ISO weeks or months of the range).
    public var axis: ReportAxis
    /// Only the sections that have data, in reading order.
    public var sections: [ReportSectionContent] = []

    public init(header: ReportHeader, axis: ReportAxis) {
        self.header = header
        self.axis = axis
    }
}

/// The report's sections; `--sections` picks some of them.
public enum ReportSection: String, Sendable, CaseIterable, Equatable {
    case activity, sleep, heart, body, workouts, changes

    public var title: String {
        switch self {
        case .activity: "Activity"
        case .sleep: "Sleep"
        case .heart: "Heart"
        case .body: "Body"
        case .workouts: "Workouts"
        case .changes: "What changed"
        }
    }
}

public struct ReportHeader: Sendable, Equatable {
    /// The database file's name (not its folder).
    public var databaseName: String
    public var timeZone: String
    /// First and last day with data in the range; nil when the range holds none.
    public var firstDay: String?
    public var lastDay: String?
    /// The range asked for (`--from`, inclusive; `--to`, exclusive), when one was.
    public var requestedFrom: String?
    public var requestedTo: String?
    public var sources: [ReportSource] = []
    public var lastImport: ReportImport?
    public var generatedAt: String

    public init(databaseName: String, timeZone: String, generatedAt: String) {
        self.databaseName = databaseName
        self.timeZone = timeZone
        self.generatedAt = generatedAt
    }
}

/// A source that contributed to the rollups of the range.
public struct ReportSource: Sendable, Equatable {
    public enum Kind: String, Sendable { case watch = "Watch", iPhone = "iPhone", app = "app" }
    public var name: String
    public var kind: Kind
    /// Days of the range on which it contributed to at least one daily value.
    public var days: Int
}

/// The latest successful import and what it flagged.
public struct ReportImport: Sendable, Equatable {
    public var finishedAt: String?
    public var exportDate: String?
    public var outcome: String
    public var warnings: [Warning] = []

    public struct Warning: Sendable, Equatable {
        public var message: String
        public var count: Int
    }
}

/// The charts' buckets. Long ranges use the rollups' own week or month rows, so a page of ten years stays
/// small and every point is still a row of the database.
public struct ReportAxis: Sendable, Equatable {
    public var resolution: ReportResolution
    /// Labels as in `rollups.label`: `2024-03-31`, the Monday `2024-03-25`, `2024-03`.
    public var labels: [String]

    public init(resolution: ReportResolution, labels: [String]) {
        self.resolution = resolution
        self.labels = labels
    }
}

public enum ReportResolution: String, Sendable, Equatable {
    case day, week, month

    /// "per day", for captions.
    public var perText: String { "per \(rawValue)" }
}

public struct ReportSectionContent: Sendable, Equatable {
    public var section: ReportSection
    public var charts: [ReportChart] = []
    public var tables: [ReportTable] = []
    public var routes: [ReportRoute] = []

    public init(section: ReportSection) { self.section = section }

    public var isEmpty: Bool { charts.isEmpty && tables.isEmpty && routes.isEmpty }
}

/// One value per bucket label; buckets without a value have no point.
public struct ReportSeries: Sendable, Equatable {
    /// What the points are, machine-readable: a `rollups.column_name` (`StepCount`), or a name of the
    /// report's own (`StepCount_7day_avg`, `activity_summaries.active_energy_burned`).
    public var key: String
    public var name: String
    public var points: [ReportPoint]
    /// The palette entry (0–7) when the series has a colour of its own (sleep stages); else by position.
    public var colour: Int?

    public init(key: String, name: String, points: [ReportPoint], colour: Int? = nil) {
        self.key = key
        self.name = name
        self.points = points
        self.colour = colour
    }
}

public struct ReportPoint: Sendable, Equatable {
    public var label: String
    public var value: Double

    public init(_ label: String, _ value: Double) {
        self.label = label
        self.value = value
    }
}

public struct ReportChart: Sendable, Equatable {
    public enum Style: Sendable, Equatable {
        /// The first series as bars; the others as lines over them (an average, a goal).
        case bars
        /// Every series stacked in one bar per bucket (sleep stages, workout minutes per activity).
        case stacked
        /// Each series as a line with a dot per value (trends).
        case lines
    }

    /// Unique within the page (`steps`), for anchors and tests.
    public var id: String
    public var title: String
    public var unit: String
    /// What a reader needs to know to read it (source rule, per day or per week).
    public var note: String
    public var style: Style
    public var series: [ReportSeries]
    /// The person's normal per day under the first series (mean ± sd of the 28 days before: docs/baselines.md).
    public var band: [ReportBand] = []
    /// Unusual days (docs/baselines.md, "Unusual days") on the chart's axis.
    public var marks: [String] = []

    public init(id: String, title: String, unit: String, note: String, style: Style, series: [ReportSeries]) {
        self.id = id
        self.title = title
        self.unit = unit
        self.note = note
        self.style = style
        self.series = series
    }

    public var isEmpty: Bool { series.allSatisfy { $0.points.isEmpty } }
}

/// One day of a normal band: its low and high edge.
public struct ReportBand: Sendable, Equatable {
    public var label: String
    public var low: Double
    public var high: Double
}

public struct ReportTable: Sendable, Equatable {
    public var id: String
    public var caption: String
    public var header: [String]
    public var rows: [[String]]
}

/// A workout's route as a shape: points already thinned and projected into a unit box (x right, y down).
public struct ReportRoute: Sendable, Equatable {
    public var workoutID: Int64
    public var title: String
    public var points: [(x: Double, y: Double)]
    /// Points stored in the database for this route (before thinning).
    public var storedPoints: Int

    public static func == (left: ReportRoute, right: ReportRoute) -> Bool {
        left.workoutID == right.workoutID && left.title == right.title && left.storedPoints == right.storedPoints
            && left.points.elementsEqual(right.points) { $0.x == $1.x && $0.y == $1.y }
    }
}
