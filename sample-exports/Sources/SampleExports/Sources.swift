/// An `HKDevice` description with its per-record address left open.
///
/// The real exporter prints `[HKDevice description]`, whose `0x…` is the object's memory address, so it differs
/// on every record. The fixed parts are escaped once here; only the hex address is written per record.
struct DeviceTemplate: Sendable {
    let fields: String
    let escapedSuffix: [UInt8]
    let addressBase: UInt64

    /// `fields` is the text after the address, e.g. `name:iPhone, manufacturer:Apple Inc., …, software:12.3`.
    init(fields: String, addressBase: UInt64) {
        var escaped: [UInt8] = Array("&gt;, ".utf8)
        for byte in fields.utf8 {
            switch byte {
            case UInt8(ascii: "&"): escaped += Array("&amp;".utf8)
            case UInt8(ascii: "<"): escaped += Array("&lt;".utf8)
            case UInt8(ascii: ">"): escaped += Array("&gt;".utf8)
            case UInt8(ascii: "\""): escaped += Array("&quot;".utf8)
            default: escaped.append(byte)
            }
        }
        escaped += Array("&gt;".utf8)
        self.fields = fields
        escapedSuffix = escaped
        self.addressBase = addressBase
    }

    /// The unescaped description, for places that escape themselves (CDA text).
    func description(address: UInt64) -> String {
        "<<HKDevice: 0x\(String(address, radix: 16))>, \(fields)>"
    }
}

/// A writing app or device: `sourceName`, `sourceVersion`, `device`.
struct Source: Sendable {
    let name: String
    let version: String?
    let device: DeviceTemplate?
}

/// The cast of sources in one export. Names are chosen to carry the traps seen in real files: a curly apostrophe,
/// `&` and `<` (escaped), and an XML-illegal control character in a third-party name.
struct SourceCatalog: Sendable {
    let iPhone: Source
    let watch: Source
    let health: Source
    let clock: Source
    let autoSleep: Source
    let healthMate: Source
    let myFitnessPal: Source
    let waterApp: Source
    let strava: Source
    let mindfulApp: Source
    let thermometer: Source
    let omron: Source
    let hearingApp: Source
    let iPhoneSoftware: String

    init(profile: ExportProfile, controlCharacters: Bool) {
        let (ios, watchOS, phoneHardware, watchHardware): (String, String, String, String)
        switch profile {
        case .ios8: (ios, watchOS, phoneHardware, watchHardware) = ("8.4", "1.0", "iPhone7,2", "Watch1,2")
        case .ios12: (ios, watchOS, phoneHardware, watchHardware) = ("12.3", "5.2.1", "iPhone10,4", "Watch4,4")
        case .ios16: (ios, watchOS, phoneHardware, watchHardware) = ("16.0", "9.0", "iPhone14,2", "Watch6,7")
        case .ios18: (ios, watchOS, phoneHardware, watchHardware) = ("18.3", "11.3", "iPhone16,1", "Watch6,7")
        }
        iPhoneSoftware = ios
        let phoneDevice = DeviceTemplate(
            fields: "name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:\(phoneHardware), software:\(ios)",
            addressBase: 0x2_8000_0000)
        let watchDevice = DeviceTemplate(
            fields: "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:\(watchHardware), "
                + "software:\(watchOS)",
            addressBase: 0x5_3000_0000)
        iPhone = Source(name: "Jonathan’s iPhone", version: ios, device: phoneDevice)
        watch = Source(name: "Jonathan’s Apple Watch", version: watchOS, device: watchDevice)
        health = Source(name: "Health", version: ios, device: nil)
        clock = Source(name: "Clock", version: nil, device: phoneDevice)
        autoSleep = Source(name: "AutoSleep", version: "6.9.4", device: nil)
        healthMate = Source(
            name: "Health Mate", version: "6020001",
            device: DeviceTemplate(
                fields: "name:Body+, manufacturer:Withings, model:Body+, hardware:WBS05, firmware:1610, "
                    + "localIdentifier:00:24:e4:7a:12:9c",
                addressBase: 0x2_8300_0000))
        myFitnessPal = Source(name: "MyFitnessPal", version: "23.18.0", device: nil)
        waterApp = Source(name: "WaterMinder", version: "5.2.3", device: nil)
        strava = Source(name: "Strava", version: "359.0.1", device: nil)
        mindfulApp = Source(name: controlCharacters ? "Zen\u{0B}Breath" : "ZenBreath", version: "2.1", device: nil)
        thermometer = Source(name: "Fever & <Temp> Log", version: "1.0 (7)", device: nil)
        omron = Source(
            name: "OMRON connect", version: "7.12.0",
            device: DeviceTemplate(
                fields: "name:BP7450, manufacturer:OMRON HEALTHCARE, model:BP7450", addressBase: 0x2_8400_0000))
        hearingApp = Source(name: "Mimi", version: "5.4.0", device: nil)
    }
}
