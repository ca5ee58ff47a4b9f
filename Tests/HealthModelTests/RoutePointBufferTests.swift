import Foundation
import Glibc
import Testing

@testable import HealthModel

/// `RoutePointBuffer`: a route's points packed in memory, moved past a threshold to an owner-only temporary file
/// without a name, read back in order.
struct RoutePointBufferTests {
    /// Points with every optional field both present and missing, and values that must survive bit for bit.
    static func points(_ count: Int) -> [RoutePoint] {
        (0..<count).map { index in
            let value = Double(index)
            return RoutePoint(
                latitude: 48.653445 + value * 1e-6, longitude: -122.396397 - value * 1e-7,
                elevation: index % 3 == 0 ? nil : 361.960114 + value,
                time: index % 5 == 4 ? nil : 1_560_290_442.25 + value,
                speed: index % 2 == 0 ? 0.976885 : nil, course: index % 7 == 0 ? nil : -0.0,
                horizontalAccuracy: index % 11 == 0 ? nil : 6.680021,
                verticalAccuracy: index % 13 == 0 ? .infinity : 6.416514)
        }
    }

    static func buffer(_ points: [RoutePoint], threshold: Int) throws -> RoutePointBuffer {
        var buffer = RoutePointBuffer(spillThreshold: threshold)
        for point in points { try buffer.append(point) }
        return buffer
    }

    @Test("Points come back in order and unchanged, in memory and spilled", arguments: [0, 1, 31, 1000, 1024, 5000])
    func roundTrip(threshold: Int) throws {
        let points = Self.points(2500)
        var buffer = try Self.buffer(points, threshold: threshold)
        #expect(buffer.count == 2500)
        #expect(buffer.isSpilled == (threshold < 2500))
        #expect(try buffer.array() == points, "before finishAppending (part still in the write buffer)")
        try buffer.finishAppending()
        #expect(try buffer.array() == points)
        #expect(buffer.residentCount == (threshold < 2500 ? 0 : 2500))
    }

    @Test func chunksAreWholeMultiplesOfTheChunkSize() throws {
        let buffer = try Self.buffer(Self.points(2 * RoutePointBuffer.chunkPoints + 100), threshold: 700)
        var sizes: [Int] = []
        try buffer.forEachChunk { sizes.append($0.count) }
        #expect(sizes == [RoutePointBuffer.chunkPoints, RoutePointBuffer.chunkPoints, 100])
        #expect(RoutePointBuffer.chunkPoints % 32 == 0, "whole groups of the sink's 32 rows per step")
    }

    /// The packed chunks a sink binds from hold the same values as the points, in memory and spilled (a
    /// chunk may start in the file and end in the write buffer).
    @Test("Packed chunks read in place give the points", arguments: [0, 700, 5000])
    func packedChunksMatchThePoints(threshold: Int) throws {
        let points = Self.points(2 * RoutePointBuffer.chunkPoints + 100)
        let buffer = try Self.buffer(points, threshold: threshold)
        var read: [RoutePoint] = []
        var sizes: [Int] = []
        try buffer.forEachPackedChunk { chunk in
            sizes.append(chunk.count)
            for index in 0..<chunk.count {
                read.append(
                    RoutePoint(
                        latitude: chunk.latitude(index), longitude: chunk.longitude(index),
                        elevation: chunk.value(.elevation, index), time: chunk.value(.time, index),
                        speed: chunk.value(.speed, index), course: chunk.value(.course, index),
                        horizontalAccuracy: chunk.value(.horizontalAccuracy, index),
                        verticalAccuracy: chunk.value(.verticalAccuracy, index)))
            }
        }
        #expect(read == points)
        #expect(sizes == [RoutePointBuffer.chunkPoints, RoutePointBuffer.chunkPoints, 100])
    }

    /// A record filled field by field (as the GPX reader does) packs as the point with those fields does;
    /// setting a field to nil again clears it.
    @Test func aRecordFilledFieldByFieldIsThePoint() throws {
        var record = RoutePointBuffer.Record(latitude: -33.5, longitude: 151.25)
        record[.elevation] = 12.5
        record[.speed] = 3
        record[.speed] = nil
        record[.verticalAccuracy] = -0.0
        #expect(record[.elevation] == 12.5 && record[.speed] == nil && record[.time] == nil)
        var buffer = RoutePointBuffer(spillThreshold: 0)
        try buffer.append(record)
        let point = RoutePoint(latitude: -33.5, longitude: 151.25, elevation: 12.5, verticalAccuracy: -0.0)
        #expect(try buffer.array() == [point])
        #expect(try buffer.array().first?.verticalAccuracy?.sign == .minus)
        #expect(RoutePointBuffer.Field.allCases.map(\.flag) == [1, 2, 4, 8, 16, 32])
    }

    @Test func anEmptyRouteHasNoFileAndNoChunks() throws {
        var buffer = RoutePointBuffer(spillThreshold: 0)
        try buffer.finishAppending()
        #expect(buffer.isEmpty && !buffer.isSpilled)
        try buffer.forEachChunk { _ in Issue.record("no chunk expected") }
    }

    @Test("The spill file is owner-only, has no name and is closed with the last copy")
    func spillFileIsPrivateUnlinkedAndCleanedUp() throws {
        var buffer: RoutePointBuffer? = try Self.buffer(Self.points(300), threshold: 10)
        let descriptor = try #require(buffer?.spillDescriptor)
        var status = stat()
        #expect(fstat(descriptor, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(status.st_nlink == 0, "unlinked from the moment it exists")
        #expect((status.st_mode & S_IFMT) == S_IFREG)
        // Tests run in parallel: a closed descriptor's number may be taken by another file at once, so the
        // file is recognised by its inode, not by its number.
        func stillOpen() -> Bool {
            var now = stat()
            return fstat(descriptor, &now) == 0 && now.st_ino == status.st_ino && now.st_dev == status.st_dev
        }
        let copy = buffer
        buffer = nil
        #expect(stillOpen(), "a copy still holds it")
        #expect(try copy?.array() == Self.points(300))
        _ = consume copy
        #expect(!stillOpen(), "closed once no copy is left")
    }

    @Test("Copies are values: appending to one leaves the other as it was", arguments: [5, 1000])
    func copyOnWrite(threshold: Int) throws {
        let points = Self.points(200)
        var first = try Self.buffer(Array(points.prefix(100)), threshold: threshold)
        let second = first
        for point in points.suffix(100) { try first.append(point) }
        #expect(try first.array() == points)
        #expect(try second.array() == Array(points.prefix(100)))
        #expect(second.count == 100)
        if threshold < 100 { #expect(first.spillDescriptor != second.spillDescriptor) }
    }

    @Test func pastTheLimitAppendingIsRefused() throws {
        var buffer = RoutePointBuffer(spillThreshold: 2)
        buffer.countLimit = 5
        for point in Self.points(5) { try buffer.append(point) }
        let error = try #require(throws: ImportError.self) { try buffer.append(Self.points(1)[0]) }
        #expect(error.kind == .input)
        #expect(error.message.contains("more than 5 points"))
        #expect(try buffer.array() == Self.points(5))
    }

    @Test func packedPointsAreSmallerThanRoutePoints() {
        #expect(RoutePointBuffer.recordSize < MemoryLayout<RoutePoint>.stride / 3 * 2)
    }
}
