import Foundation

/// One ECG recording; its CSV name is the start date in the device zone, with `_1`, `_2`… on collisions.
struct ECGItem {
    let start: Int64
    let fileName: String
    let japanese: Bool
    let classification: String
    let day: Int
    let index: Int
}

/// Files beside export.xml: ECG CSVs, `export_cda.xml` (deliberately not well formed), FHIR JSON.
struct SideFiles {
    let context: ExportContext

    static func ecgItems(context: ExportContext) -> [ECGItem] {
        guard context.profile.isModern, context.days > 0 else { return [] }
        var items: [ECGItem] = []
        var used: [String: Int] = [:]
        let classes = ["Sinus Rhythm", "Poor Recording", "Inconclusive", "Sinus Rhythm", "Atrial Fibrillation"]
        for day in stride(from: min(3, context.days - 1), to: context.days, by: 7) {
            let plan = context.plan(day)
            for second in 0..<(items.isEmpty ? 2 : 1) {
                let start = plan.bedtime - 5_400 + Int64(second * 158)
                let local = start + Int64(context.options.homeZone.offset(at: start))
                let date = CivilDate.dayText(Int(CivilDate.floorDiv(local, 86_400)))
                let count = used[date, default: 0]
                used[date] = count + 1
                let name = count == 0 ? "ecg_\(date).csv" : "ecg_\(date)_\(count).csv"
                let index = items.count
                items.append(
                    ECGItem(
                        start: start, fileName: name, japanese: index == 1,
                        classification: classes[index % classes.count], day: day, index: index))
            }
        }
        return items
    }

    /// The CSV in the exporter's shape (§8.1): header by position, two blank lines, lead and unit, a blank line,
    /// then 15,360 samples (30 s at 512 Hz) in µV. The Japanese one has localised labels and decimal commas.
    func writeECG(_ item: ECGItem, to out: XMLWriter) throws -> Int {
        let clock = context.clock
        if item.japanese {
            try out.raw("名前,\n生年月日,\"1984/06/16\"\n記録日,\(clock.string(item.start))\n分類,洞調律\n症状,\n")
            try out.raw("ソフトウェアバージョン,2\nデバイス,\"Watch6,7\"\nサンプルレート,512ヘルツ\n\n\n")
        } else {
            try out.raw("Name,Jonathan Appleseed\nDate of Birth,\"Jun 16, 1984\"\n")
            try out.raw("Recorded Date,\(clock.string(item.start))\n")
            try out.raw("Classification,\(item.classification)\nSymptoms,\(item.index == 2 ? "Fatigue" : "")\n")
            try out.raw("Software Version,2\nDevice,\"Watch6,7\"\nSample Rate,512 hertz\n\n\n")
        }
        try out.raw("Lead,Lead I\nUnit,µV\n\n")
        var random = context.random("ecg", day: item.index)
        let rr = 60.0 / random.double(58, 84)
        let separator: Character = item.japanese ? "," : "."
        let samples = 15_360
        for index in 0..<samples {
            let t = Double(index) / 512
            let phase = t.truncatingRemainder(dividingBy: rr)
            func bump(_ center: Double, _ width: Double, _ height: Double) -> Double {
                let x = (phase - center) / width
                return height * exp(-x * x)
            }
            let value =
                bump(0.1, 0.025, 90) + bump(0.2, 0.008, -110) + bump(0.22, 0.01, 950)
                + bump(0.24, 0.01, -230) + bump(0.45, 0.045, 260) + 40 * sin(2 * .pi * 0.3 * t)
                + random.double(-12, 12)
            try out.raw(NumberText.trimmed(value, decimals: 3, separator: separator))
            try out.newline()
        }
        return samples
    }

    /// A C-CDA summary whose root is closed early, with a vital-signs section after it ("junk after document
    /// element"), as the real `_completeAndCloseStreamingXML` leaves it.
    func writeCDA(to out: XMLWriter) throws {
        let stamp = cdaTime(context.exportTime)
        try out.raw(
            """
            <?xml version="1.0"?>
            <?xml-stylesheet type="text/xsl" href="CDA.xsl"?>
            <ClinicalDocument xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="urn:hl7-org:v3 ../../../CDA%20R2/cda-schemas-and-samples/infrastructure/cda/CDA.xsd" \
            xmlns="urn:hl7-org:v3" xmlns:cda="urn:hl7-org:v3" xmlns:sdtc="urn:l7-org:sdtc" \
            xmlns:fhir="http://hl7.org/fhir/v3">
             <realmCode code="US"/>
             <typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>
             <templateId root="2.16.840.1.113883.10.20.22.1.2"/>
             <id extension="Health Export CDA" root="1.1.1.1.1.1.1.1.1"/>
             <code codeSystem="2.16.840.1.113883.6.1" codeSystemName="LOINC" code="34109-9" displayName="Note"/>
             <title>Health Data Export</title>
             <effectiveTime value="\(stamp)"/>
             <confidentialityCode code="N" codeSystem="2.16.840.1.113883.5.25"/>
             <recordTarget>
              <patientRole>
               <id root="2.16.840.1.113883.4.6" nullFlavor="NA"/>
               <patient>
                <administrativeGenderCode code="M" codeSystem="2.16.840.1.113883.5.1" displayName="Male"/>
                <birthTime value="19840616"/>
               </patient>
              </patientRole>
             </recordTarget>
            </ClinicalDocument>
            <component>
             <section>
              <templateId root="2.16.840.1.113883.10.20.22.2.4.1"/>
              <code codeSystem="2.16.840.1.113883.6.1" codeSystemName="LOINC" code="8716-3" displayName="VITAL SIGNS"/>
              <title>Vital Signs</title>
              <text/>

            """)
        // With `cdaTargetBytes` the pair of entries repeats, day after day, until the file is big enough: years
        // of data give a CDA of 50 MB+, which an importer must stream past rather than load.
        var entry = 0
        repeat {
            let plan = context.plan(entry % context.days)
            try writeCDAVitals(to: out, time: cdaTime(plan.wake + 600 + Int64(entry / context.days)))
            entry += 1
        } while out.bytesWritten < (context.options.cdaTargetBytes ?? 0)
        try out.raw(" </section>\n</component>\n")
    }

    private func writeCDAVitals(to out: XMLWriter, time: String) throws {
        for (code, name, type, value, unit) in [
            ("29463-7", "Body weight", "HKQuantityTypeIdentifierBodyMass", "78.4", "kg"),
            ("8867-4", "Heart rate", "HKQuantityTypeIdentifierHeartRate", "64", "count/min"),
        ] {
            try out.raw(
                """
                  <entry typeCode="DRIV">
                   <organizer classCode="CLUSTER" moodCode="EVN">
                    <templateId root="2.16.840.1.113883.10.20.22.4.26"/>
                    <statusCode code="completed"/>
                    <component>
                     <observation classCode="OBS" moodCode="EVN">
                      <code code="\(code)" codeSystem="2.16.840.1.113883.6.1" codeSystemName="LOINC" \
                displayName="\(name)"/>
                      <text>
                       <sourceName>Jonathan&#8217;s Apple Watch</sourceName>
                       <value>\(value)</value>
                       <type>\(type)</type>
                       <unit>\(unit)</unit>
                      </text>
                      <effectiveTime>
                       <low value="\(time)"/>
                       <high value="\(time)"/>
                      </effectiveTime>
                      <value xsi:type="PQ" value="\(value)" unit="\(unit)"/>
                     </observation>
                    </component>
                   </organizer>
                  </entry>

                """)
        }
    }

    /// `yyyyMMddHHmmss±hhmm` in the export offset.
    private func cdaTime(_ time: Int64) -> String {
        let text = context.clock.string(time)
        return String(text.prefix(19).filter(\.isNumber)) + text.suffix(5)
    }

    /// A FHIR R4 resource as the provider sent it.
    func clinicalJSON(_ item: ClinicalItem) -> String {
        let issued = ExportClock.iso8601(item.received - 86_400)
        let body: String
        switch item.resourceType {
        case "Observation":
            body = """
                "status":"final","category":[{"coding":[{"system":\
                "http://terminology.hl7.org/CodeSystem/observation-category","code":"laboratory"}]}],\
                "code":{"coding":[{"system":"http://loinc.org","code":"2345-7",\
                "display":"Glucose [Mass/volume] in Serum or Plasma"}],"text":"Glucose"},\
                "effectiveDateTime":"\(issued)",\
                "issued":"\(issued)","valueQuantity":{"value":\(90 + item.index),"unit":"mg/dL",\
                "system":"http://unitsofmeasure.org","code":"mg/dL"}
                """
        case "Immunization":
            body = """
                "status":"completed","vaccineCode":{"coding":[{"system":"http://hl7.org/fhir/sid/cvx","code":"208",\
                "display":"COVID-19 mRNA"}]},"occurrenceDateTime":"\(issued)"
                """
        case "Condition":
            body = """
                "clinicalStatus":{"coding":[{"system":"http://terminology.hl7.org/CodeSystem/condition-clinical",\
                "code":"active"}]},"code":{"coding":[{"system":"http://snomed.info/sct","code":"195967001",\
                "display":"Asthma"}],"text":"Asthma"},"recordedDate":"\(issued)"
                """
        default:
            body = """
                "clinicalStatus":{"coding":[{"system":\
                "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical",\
                "code":"active"}]},"code":{"coding":[{"system":"http://snomed.info/sct","code":"91935009",\
                "display":"Allergy to peanut"}],"text":"Peanut allergy"},"recordedDate":"\(issued)"
                """
        }
        return "{\"resourceType\":\"\(item.resourceType)\",\"id\":\"\(item.identifier)\","
            + "\"subject\":{\"reference\":\"Patient/eJzlzKe3KPzAV5TtkxmNivQ3\"},\(body)}\n"
    }
}
