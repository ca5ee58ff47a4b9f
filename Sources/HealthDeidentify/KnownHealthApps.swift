import Foundation

/// The app names a de-identified copy keeps as they are: Apple's apps, and the common third-party apps that
/// write to HealthKit under their own name (trackers, scales, CGMs, blood-pressure cuffs, sleep, nutrition,
/// cycle and mindfulness apps, sync tools). Every other source name is pseudonymised by default, because an app's
/// name can be its owner's: a real export held "freddie connect", the app of a user called Freddie.
///
/// docs/privacy.md lists the same names (`KnownHealthAppsTests` checks both ways). Add a name here only when the
/// app is published under it; compared ignoring case and surrounding spaces.
package enum KnownHealthApps {
    /// Apple's own apps, which write under their own name with the phone or the watch as device.
    package static let apple: [String] = [
        "Activity", "Blood Oxygen", "Breathe", "Clock", "Compass", "Cycle Tracking", "ECG", "Fitness", "Health",
        "Heart Rate", "Journal", "Medications", "Mind", "Mindfulness", "Noise", "Sleep", "Vitals", "Workout",
    ]

    /// Third-party apps, by kind (the kinds are for the reader: one list is matched).
    package static let thirdParty: [(kind: String, names: [String])] = [
        (
            "activity and workout trackers",
            [
                "adidas Running", "AllTrails", "Amazfit", "Athlytic", "Bevel", "COROS", "Cardiogram", "Fitbit",
                "Fitbod", "Garmin Connect", "Gentler Streak", "HeartWatch", "Huawei Health", "Komoot", "Ladder",
                "Map My Ride", "Map My Run", "MapMyRun", "Mi Fit", "Mi Fitness", "Nike Run Club",
                "Nike Training Club", "Oura", "Peloton", "Pedometer++", "Polar Flow", "Runkeeper", "Runna",
                "Runtastic", "StepsApp", "Stepz", "Strava", "Strong", "Suunto", "Sweatcoin", "TrainingPeaks",
                "Training Today", "Wahoo", "WHOOP", "WorkOutDoors", "Zepp", "Zepp Life", "Zwift",
            ]
        ),
        (
            "scales and blood-pressure cuffs",
            [
                "Arboleaf", "EufyLife", "Feelfit", "FITINDEX", "Fitdays", "Health Mate", "iHealth MyVitals",
                "Kardia", "My Tanita", "OMRON connect", "Qardio", "RENPHO Health", "Renpho", "SmartBP", "VeSync",
                "Withings", "Wyze",
            ]
        ),
        (
            "glucose meters and CGMs",
            [
                "Accu-Chek", "Contour Diabetes", "Dexcom", "Dexcom G6", "Dexcom G7", "Eversense", "FreeStyle Libre",
                "FreeStyle LibreLink", "Glucose Buddy", "LibreLink", "Levels", "Lingo", "Loop", "mySugr",
                "One Drop", "OneTouch Reveal", "Stelo", "Sugarmate", "xDrip4iOS",
            ]
        ),
        (
            "sleep",
            [
                "AutoSleep", "Eight Sleep", "NapBot", "Pillow", "Rise", "ShutEye", "Sleep Cycle", "SleepScore",
                "SleepSpace", "SleepWatch", "Sleep++",
            ]
        ),
        (
            "nutrition, water, cycle, hearing and mindfulness",
            [
                "Calm", "Clue", "Cronometer", "Flo", "Headspace", "Lifesum", "Lose It!", "MacroFactor", "Mimi",
                "MyFitnessPal", "Natural Cycles", "Noom", "WaterMinder", "Waterllama", "Welltory", "Yazio",
            ]
        ),
        ("sync and export tools", ["Health Auto Export", "HealthFit", "RunGap", "FitnessSyncer", "Health Sync"]),
    ]

    /// Every name above, lower-cased: what `contains` matches.
    static let lowercasedNames: Set<String> = Set(
        (apple + thirdParty.flatMap(\.names)).map { $0.lowercased() })

    /// Whether `name` is one of the apps above (ignoring case and surrounding spaces).
    package static func contains(_ name: String) -> Bool {
        lowercasedNames.contains(name.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// Whether `name` is one of Apple's apps (exactly, as the Health app writes them).
    static func isApple(_ name: String) -> Bool { apple.contains(name) }
}
