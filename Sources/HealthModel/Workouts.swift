/// A `Workout` with everything nested in it.
public struct Workout: Sendable {
    public var activityType: String
    public var source: SampleSource
    /// Minutes, as written (`durationUnit` is always `min` in real exports; other units are converted).
    public var duration: Double?
    public var durationUnit: String?
    /// iOS ≤ 15 totals, in display units.
    public var totalDistance: Double?
    public var totalDistanceUnit: String?
    public var totalEnergyBurned: Double?
    public var totalEnergyBurnedUnit: String?
    /// The totals as exported, when the unit stage converted them.
    public var rawTotalDistance: (value: Double, unit: String)?
    public var rawTotalEnergyBurned: (value: Double, unit: String)?
    public var creationDate: Timestamp?
    public var startDate: Timestamp?
    public var endDate: Timestamp?
    public var metadata: [MetadataEntry] = []
    public var events: [WorkoutEvent] = []
    public var activities: [WorkoutActivity] = []
    public var statistics: [WorkoutStatistic] = []
    public var routes: [WorkoutRoute] = []
    public var flags: SampleFlags = []
    public var line: Int32

    public init(activityType: String, source: SampleSource, line: Int32) {
        self.activityType = activityType
        self.source = source
        self.line = line
    }

    /// Route points held in memory (not in a temporary file) by the workout's routes.
    public var residentRoutePoints: Int { routes.reduce(0) { $0 + $1.points.residentCount } }

    /// Whether a route's GPX file is still to be read (`RouteResolver`).
    public var hasUnreadRouteFile: Bool { routes.contains { $0.filePath != nil && !$0.fileRead } }
}

public struct WorkoutEvent: Sendable {
    public var type: String
    public var date: Timestamp?
    public var duration: Double?
    public var durationUnit: String?
    public var metadata: [MetadataEntry] = []
    /// Index into `Workout.activities` when the event is nested in an activity.
    public var activityIndex: Int?

    /// Memberwise, for the other targets.
    package init(
        type: String, date: Timestamp? = nil, duration: Double? = nil, durationUnit: String? = nil,
        metadata: [MetadataEntry] = [], activityIndex: Int? = nil
    ) {
        self.type = type
        self.date = date
        self.duration = duration
        self.durationUnit = durationUnit
        self.metadata = metadata
        self.activityIndex = activityIndex
    }
}

public struct WorkoutActivity: Sendable {
    public var uuid: String?
    public var startDate: Timestamp?
    public var endDate: Timestamp?
    public var duration: Double?
    public var durationUnit: String?
    public var metadata: [MetadataEntry] = []

    /// Memberwise, for the other targets.
    package init(
        uuid: String? = nil, startDate: Timestamp? = nil, endDate: Timestamp? = nil, duration: Double? = nil,
        durationUnit: String? = nil, metadata: [MetadataEntry] = []
    ) {
        self.uuid = uuid
        self.startDate = startDate
        self.endDate = endDate
        self.duration = duration
        self.durationUnit = durationUnit
        self.metadata = metadata
    }
}

public struct WorkoutStatistic: Sendable {
    public var type: String
    public var startDate: Timestamp?
    public var endDate: Timestamp?
    public var average: Double?
    public var minimum: Double?
    public var maximum: Double?
    public var sum: Double?
    public var unit: String?
    /// The unit as exported, when the unit stage converted the values.
    public var rawUnit: String?
    public var activityIndex: Int?

    /// Memberwise, for the other targets.
    package init(
        type: String, startDate: Timestamp? = nil, endDate: Timestamp? = nil, average: Double? = nil,
        minimum: Double? = nil, maximum: Double? = nil, sum: Double? = nil, unit: String? = nil,
        rawUnit: String? = nil, activityIndex: Int? = nil
    ) {
        self.type = type
        self.startDate = startDate
        self.endDate = endDate
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.sum = sum
        self.unit = unit
        self.rawUnit = rawUnit
        self.activityIndex = activityIndex
    }
}

public struct WorkoutRoute: Sendable {
    public var source: SampleSource
    public var creationDate: Timestamp?
    public var startDate: Timestamp?
    public var endDate: Timestamp?
    public var metadata: [MetadataEntry] = []
    /// `/workout-routes/route_….gpx`, as written (iOS 13+).
    public var filePath: String?
    /// Inline `Location`s (iOS 12) or the points read from the GPX file; a long route's in a temporary file.
    public var points = RoutePointBuffer()
    /// Why the points could not be read, when they could not (missing or broken GPX file).
    public var problem: String?
    /// `filePath` was read (its points or its `problem` are in): by the decoding side or by the thread that
    /// took the workout, whichever the decoding side chose (`RouteResolver`), never both.
    public var fileRead = false
    /// While the file is left to the thread that takes the workout: about how many points it will hold (from
    /// its size), so that the workout weighs in the queue what it will hold once read (`ExportItem.weight`).
    public var unreadPoints = 0

    /// Memberwise, for the other targets.
    package init(
        source: SampleSource, creationDate: Timestamp? = nil, startDate: Timestamp? = nil, endDate: Timestamp? = nil,
        metadata: [MetadataEntry] = [], filePath: String? = nil, points: RoutePointBuffer = RoutePointBuffer(),
        problem: String? = nil
    ) {
        self.source = source
        self.creationDate = creationDate
        self.startDate = startDate
        self.endDate = endDate
        self.metadata = metadata
        self.filePath = filePath
        self.points = points
        self.problem = problem
    }
}

public struct RoutePoint: Equatable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public var elevation: Double?
    /// Seconds since 1970 UTC.
    public var time: Double?
    public var speed: Double?
    public var course: Double?
    public var horizontalAccuracy: Double?
    public var verticalAccuracy: Double?

    public init(
        latitude: Double, longitude: Double, elevation: Double? = nil, time: Double? = nil, speed: Double? = nil,
        course: Double? = nil, horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.time = time
        self.speed = speed
        self.course = course
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
    }
}
