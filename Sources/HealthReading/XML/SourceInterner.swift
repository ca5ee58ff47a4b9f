import Glibc
import HealthModel

/// Interns sources (name, version, device) so millions of samples share a few `SampleSource` objects.
struct SourceInterner {
    private struct Key: Hashable {
        var name: String
        var version: String?
        var device: String?
    }

    private var sources: [Key: SampleSource] = [:]
    private var deviceKeys: [[UInt8]] = []
    private var devices: [Device] = []
    private var nextDevice = 0
    private var deviceCache: [String: Device] = [:]

    private static let prefix: [UInt8] = Array("<<HKDevice:".utf8)

    /// Every source seen, in order of first appearance.
    private(set) var all: [SampleSource] = []

    /// Recently used sources, checked before hashing: records alternate between a few sources.
    private var recent: [SampleSource] = []

    mutating func source(name: String, version: String?, device: Device?) -> SampleSource {
        for candidate in recent
        where candidate.device === device && candidate.name == name && candidate.version == version {
            return candidate
        }
        let key = Key(name: name, version: version, device: device?.key)
        let source: SampleSource
        if let known = sources[key] {
            source = known
        } else {
            source = SampleSource(id: all.count + 1, name: name, version: version, device: device)
            sources[key] = source
            all.append(source)
        }
        if recent.count == 8 { recent.removeLast() }
        recent.insert(source, at: 0)
        return source
    }

    /// The device of a `device` attribute. The `0x…` address differs on every record, so the cache compares
    /// the bytes after it.
    mutating func device(_ bytes: XMLBytes) -> Device {
        var start = 0
        if bytes.count > Self.prefix.count, memcmp(bytes.baseAddress!, Self.prefix, Self.prefix.count) == 0,
            let close = bytes.firstIndex(of: UInt8(ascii: ">"))
        {
            start = close + 1
        }
        // A value rewritten by DeviceAttributeRewrite starts with spaces instead; after either, skip to `name:`.
        while start < bytes.count, bytes[start] == 0x20 || bytes[start] == UInt8(ascii: ",") { start += 1 }
        let tail = UnsafeBufferPointer(rebasing: bytes[start...])
        for index in 0..<deviceKeys.count where deviceKeys[index].count == tail.count {
            let equal = deviceKeys[index].withUnsafeBufferPointer {
                tail.isEmpty || memcmp($0.baseAddress!, tail.baseAddress!, tail.count) == 0
            }
            if equal { return devices[index] }
        }
        let device = Device(description: XMLText.decode(bytes))
        let shared = deviceCache[device.key] ?? device
        deviceCache[device.key] = shared
        if deviceKeys.count < 16 {
            deviceKeys.append(Array(tail))
            devices.append(shared)
        } else {
            deviceKeys[nextDevice] = Array(tail)
            devices[nextDevice] = shared
            nextDevice = (nextDevice + 1) % 16
        }
        return shared
    }
}
