import Testing

@testable import HealthModel

struct NumberParsingTests {
    @Test(arguments: [
        ("56.1244", 56.1244), ("9.9854e-06", 9.9854e-06), ("1.2e+06", 1.2e+06), ("-3", -3.0), ("0", 0.0),
        ("88.23378186623255", 88.23378186623255), (".5", 0.5), ("1E3", 1000.0),
    ])
    func parsesPercentGForms(_ text: String, _ expected: Double) {
        #expect(NumberParsing.parseDouble(text) == expected)
        #expect(NumberParsing.parseDouble(text) == Double(text))
    }

    @Test(arguments: ["", "abc", "nan", "inf", "-inf", "0x1p3", "1,5", "1.2.3", "12 kg", "1e999", "+", "e5"])
    func rejectsNonNumbers(_ text: String) {
        #expect(NumberParsing.parseDouble(text) == nil)
    }

    @Test func parsesLocalisedDecimals() {
        #expect(NumberParsing.parseLocalizedDouble("-265,868") == -265.868)
        #expect(NumberParsing.parseLocalizedDouble("64") == 64)
    }

    @Test func splitsQuantityMetadata() {
        #expect(MetadataValue.quantity("418 cm") == (418, "cm"))
        #expect(MetadataValue.quantity("6900 %") == (6900, "%"))
        #expect(MetadataValue.quantity("4.52156 kcal/hr·kg") == (4.52156, "kcal/hr·kg"))
        #expect(MetadataValue.quantity("1") == (1, nil))
        #expect(MetadataValue.quantity("2021-11-01 07:00:00 +0000") == (nil, nil))
        #expect(MetadataValue.quantity("America/New_York") == (nil, nil))
    }
}

struct DeviceTests {
    @Test func splitsAWatchDescriptionWithCommasInValues() {
        let device = Device(
            description:
                "<<HKDevice: 0x533ad2350>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,7, software:9.6.3>"
        )
        #expect(device.name == "Apple Watch")
        #expect(device.manufacturer == "Apple Inc.")
        #expect(device.model == "Watch")
        #expect(device.hardware == "Watch6,7")
        #expect(device.software == "9.6.3")
        #expect(
            device.key == "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,7, software:9.6.3")
    }

    @Test func dropsTheAddressFromTheIdentity() {
        let one = Device(description: "<<HKDevice: 0x282e3a260>, name:iPhone, model:iPhone, hardware:iPhone10,4>")
        let two = Device(description: "<<HKDevice: 0x111111111>, name:iPhone, model:iPhone, hardware:iPhone10,4>")
        #expect(one == two)
    }

    @Test func keepsThirdPartyFieldsAndOddText() {
        let device = Device(
            description: "<<HKDevice: 0x1>, name:Scale, manufacturer:Withings, localIdentifier:AB:CD, firmware:1.2>")
        #expect(device.localIdentifier == "AB:CD")
        #expect(device.firmware == "1.2")
        let odd = Device(description: "some app wrote this")
        #expect(odd.name == nil)
        #expect(odd.key == "some app wrote this")
    }
}

struct NumberFastPathTests {
    /// The fast path must give exactly what strtod gives, on %g-shaped and longer numbers.
    @Test func agreesWithTheStandardLibraryOnRandomNumbers() {
        var state: UInt64 = 7
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        for round in 0..<20_000 {
            let magnitude = Double(next() % 1_000_000_000) / Double(1 << (next() % 40))
            let value = (round % 2 == 0 ? 1 : -1) * magnitude
            for text in [
                String(format: "%g", value), String(format: "%.12g", value), "\(value)", String(format: "%.3e", value),
            ] {
                #expect(NumberParsing.parseDouble(text) == Double(text), "\(text)")
            }
        }
    }

    @Test(arguments: ["-", ".", "-.", "1e", "1e+", "1..2", "1.2.3", "--1", "1e5x", "0.000000000000000000000001"])
    func edgeCasesMatchTheStandardLibrary(_ text: String) {
        #expect(NumberParsing.parseDouble(text) == Double(text))
    }
}
