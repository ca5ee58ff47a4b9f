import Foundation

/// The internal DTDs, byte for byte as the exporter embeds them (`xmlTextWriterWriteDTD` with a static C string).
///
/// The iOS 16 ("Version: 12") text is rebuilt from the v14 one with the defects reported in §3.3 of the format
/// notes, because no verbatim copy survives: the `VisionPrescription` ATTLIST lacks its `>`, a stray `device` line,
/// a second `MetadataEntry` declaration and an extra `>` follow `LeftEye`. Expat and ElementTree reject it, which is
/// the point: an importer must cut the DOCTYPE out instead of parsing it.
enum DTDText {
    /// The XML declaration and DOCTYPE, ending in `]>` and a newline.
    static func prolog(for profile: ExportProfile) -> String {
        switch profile {
        case .ios8: return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        case .ios12: return version8 + "\n"
        case .ios16: return version12 + "\n"
        case .ios18: return version14 + "\n"
        }
    }

    /// iOS 16.0 "HealthKit Export Version: 12": not well formed.
    static let version12: String = {
        var lines = version14.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func index(_ line: String, after start: Int = 0) -> Int {
            lines[start...].firstIndex(of: line)!
        }
        lines[2] = "<!-- HealthKit Export Version: 12 -->"
        lines[3] = lines[3].replacingOccurrences(of: "|Audiogram", with: "")
        lines.removeAll { $0.contains("CardioFitnessMedicationsUse") }
        lines = lines.map {
            $0.replacingOccurrences(of: "WorkoutRoute|WorkoutStatistics)*", with: "WorkoutRoute)*")
                .replacingOccurrences(
                    of: "<!ELEMENT WorkoutEvent ((MetadataEntry)*)>", with: "<!ELEMENT WorkoutEvent EMPTY>"
                )
                .replacingOccurrences(
                    of: "<!ELEMENT Audiogram ((MetadataEntry|SensitivityPoint)*)>",
                    with: "<!ELEMENT Audiogram EMPTY>"
                )
                .replacingOccurrences(
                    of: "(RightEye|LeftEye|Attachment|MetadataEntry)*", with: "(RightEye|LeftEye|MetadataEntry)*")
        }
        lines.removeAll { $0.contains("EarMasked") || $0.contains("ClampingRange") }
        let statistics = index("<!ATTLIST WorkoutStatistics")
        lines.remove(at: index("  unit                 CDATA #IMPLIED", after: statistics))
        let vision = index("<!ATTLIST VisionPrescription")
        let expiration = index("  expirationDate   CDATA #IMPLIED", after: vision)
        lines[expiration] = "  expirationDate   CDATA #REQUIRED"
        lines.remove(at: index(">", after: vision))
        let attachment = index("<!ELEMENT Attachment EMPTY>")
        lines.removeSubrange(attachment..<(attachment + 4))
        let leftEnd = index(">", after: index("<!ATTLIST LeftEye"))
        lines.insert(
            contentsOf: [
                "  device           CDATA #IMPLIED",
                "<!ELEMENT MetadataEntry EMPTY>",
                "<!ATTLIST MetadataEntry",
                "  key              CDATA #IMPLIED",
                "  value            CDATA #IMPLIED",
                ">",
                ">",
            ], at: leftEnd + 1)
        return lines.joined(separator: "\n")
    }()

    /// iOS 18.2+ through 26.x, "HealthKit Export Version: 14".
    static let version14 = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 14 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        <!ELEMENT ExportDate EMPTY>
        <!ATTLIST ExportDate
          value CDATA #REQUIRED
        >
        <!ELEMENT Me EMPTY>
        <!ATTLIST Me
          HKCharacteristicTypeIdentifierDateOfBirth                   CDATA #REQUIRED
          HKCharacteristicTypeIdentifierBiologicalSex                 CDATA #REQUIRED
          HKCharacteristicTypeIdentifierBloodType                     CDATA #REQUIRED
          HKCharacteristicTypeIdentifierFitzpatrickSkinType           CDATA #REQUIRED
          HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse   CDATA #REQUIRED
        >
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          value         CDATA #IMPLIED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
        <!ELEMENT Correlation ((MetadataEntry|Record)*)>
        <!ATTLIST Correlation
          type          CDATA #REQUIRED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
        <!ATTLIST Workout
          workoutActivityType   CDATA #REQUIRED
          duration              CDATA #IMPLIED
          durationUnit          CDATA #IMPLIED
          totalDistance         CDATA #IMPLIED
          totalDistanceUnit     CDATA #IMPLIED
          totalEnergyBurned     CDATA #IMPLIED
          totalEnergyBurnedUnit CDATA #IMPLIED
          sourceName            CDATA #REQUIRED
          sourceVersion         CDATA #IMPLIED
          device                CDATA #IMPLIED
          creationDate          CDATA #IMPLIED
          startDate             CDATA #REQUIRED
          endDate               CDATA #REQUIRED
        >
        <!ELEMENT WorkoutActivity ((MetadataEntry)*)>
        <!ATTLIST WorkoutActivity
          uuid                 CDATA #REQUIRED
          startDate            CDATA #REQUIRED
          endDate              CDATA #IMPLIED
          duration             CDATA #IMPLIED
          durationUnit         CDATA #IMPLIED
        >
        <!ELEMENT WorkoutEvent ((MetadataEntry)*)>
        <!ATTLIST WorkoutEvent
          type                 CDATA #REQUIRED
          date                 CDATA #REQUIRED
          duration             CDATA #IMPLIED
          durationUnit         CDATA #IMPLIED
        >
        <!ELEMENT WorkoutStatistics EMPTY>
        <!ATTLIST WorkoutStatistics
          type                 CDATA #REQUIRED
          startDate            CDATA #REQUIRED
          endDate              CDATA #REQUIRED
          average              CDATA #IMPLIED
          minimum              CDATA #IMPLIED
          maximum              CDATA #IMPLIED
          sum                  CDATA #IMPLIED
          unit                 CDATA #IMPLIED
        >
        <!ELEMENT WorkoutRoute ((MetadataEntry|FileReference)*)>
        <!ATTLIST WorkoutRoute
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT FileReference EMPTY>
        <!ATTLIST FileReference
          path CDATA #REQUIRED
        >
        <!ELEMENT ActivitySummary EMPTY>
        <!ATTLIST ActivitySummary
          dateComponents           CDATA #IMPLIED
          activeEnergyBurned       CDATA #IMPLIED
          activeEnergyBurnedGoal   CDATA #IMPLIED
          activeEnergyBurnedUnit   CDATA #IMPLIED
          appleMoveTime            CDATA #IMPLIED
          appleMoveTimeGoal        CDATA #IMPLIED
          appleExerciseTime        CDATA #IMPLIED
          appleExerciseTimeGoal    CDATA #IMPLIED
          appleStandHours          CDATA #IMPLIED
          appleStandHoursGoal      CDATA #IMPLIED
        >
        <!ELEMENT MetadataEntry EMPTY>
        <!ATTLIST MetadataEntry
          key   CDATA #REQUIRED
          value CDATA #REQUIRED
        >
        <!-- Note: Heart Rate Variability records captured by Apple Watch may include an associated list of instantaneous beats-per-minute readings. -->
        <!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>
        <!ELEMENT InstantaneousBeatsPerMinute EMPTY>
        <!ATTLIST InstantaneousBeatsPerMinute
          bpm  CDATA #REQUIRED
          time CDATA #REQUIRED
        >
        <!ELEMENT ClinicalRecord EMPTY>
        <!ATTLIST ClinicalRecord
          type              CDATA #REQUIRED
          identifier        CDATA #REQUIRED
          sourceName        CDATA #REQUIRED
          sourceURL         CDATA #REQUIRED
          fhirVersion       CDATA #REQUIRED
          receivedDate      CDATA #REQUIRED
          resourceFilePath  CDATA #REQUIRED
        >
        <!ELEMENT Audiogram ((MetadataEntry|SensitivityPoint)*)>
        <!ATTLIST Audiogram
          type          CDATA #REQUIRED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT SensitivityPoint EMPTY>
        <!ATTLIST SensitivityPoint
          frequencyValue   CDATA #REQUIRED
          frequencyUnit    CDATA #REQUIRED
          leftEarValue     CDATA #IMPLIED
          leftEarUnit      CDATA #IMPLIED
          leftEarMasked      CDATA #IMPLIED
          leftEarClampingRangeLowerBound   CDATA #IMPLIED
          leftEarClampingRangeUpperBound   CDATA #IMPLIED
          rightEarValue    CDATA #IMPLIED
          rightEarUnit     CDATA #IMPLIED
          rightEarMasked      CDATA #IMPLIED
          rightEarClampingRangeLowerBound  CDATA #IMPLIED
          rightEarClampingRangeUpperBound  CDATA #IMPLIED
        >
        <!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>
        <!ATTLIST VisionPrescription
          type             CDATA #REQUIRED
          dateIssued       CDATA #REQUIRED
          expirationDate   CDATA #IMPLIED
          brand            CDATA #IMPLIED
        >
        <!ELEMENT RightEye EMPTY>
        <!ATTLIST RightEye
          sphere           CDATA #IMPLIED
          sphereUnit       CDATA #IMPLIED
          cylinder         CDATA #IMPLIED
          cylinderUnit     CDATA #IMPLIED
          axis             CDATA #IMPLIED
          axisUnit         CDATA #IMPLIED
          add              CDATA #IMPLIED
          addUnit          CDATA #IMPLIED
          vertex           CDATA #IMPLIED
          vertexUnit       CDATA #IMPLIED
          prismAmount      CDATA #IMPLIED
          prismAmountUnit  CDATA #IMPLIED
          prismAngle       CDATA #IMPLIED
          prismAngleUnit   CDATA #IMPLIED
          farPD            CDATA #IMPLIED
          farPDUnit        CDATA #IMPLIED
          nearPD           CDATA #IMPLIED
          nearPDUnit       CDATA #IMPLIED
          baseCurve        CDATA #IMPLIED
          baseCurveUnit    CDATA #IMPLIED
          diameter         CDATA #IMPLIED
          diameterUnit     CDATA #IMPLIED
        >
        <!ELEMENT LeftEye EMPTY>
        <!ATTLIST LeftEye
          sphere           CDATA #IMPLIED
          sphereUnit       CDATA #IMPLIED
          cylinder         CDATA #IMPLIED
          cylinderUnit     CDATA #IMPLIED
          axis             CDATA #IMPLIED
          axisUnit         CDATA #IMPLIED
          add              CDATA #IMPLIED
          addUnit          CDATA #IMPLIED
          vertex           CDATA #IMPLIED
          vertexUnit       CDATA #IMPLIED
          prismAmount      CDATA #IMPLIED
          prismAmountUnit  CDATA #IMPLIED
          prismAngle       CDATA #IMPLIED
          prismAngleUnit   CDATA #IMPLIED
          farPD            CDATA #IMPLIED
          farPDUnit        CDATA #IMPLIED
          nearPD           CDATA #IMPLIED
          nearPDUnit       CDATA #IMPLIED
          baseCurve        CDATA #IMPLIED
          baseCurveUnit    CDATA #IMPLIED
          diameter         CDATA #IMPLIED
          diameterUnit     CDATA #IMPLIED
        >
        <!ELEMENT Attachment EMPTY>
        <!ATTLIST Attachment
          identifier       CDATA #IMPLIED
        >
        ]>
        """
}
