import Foundation
import HTTPTypes
import KFeedImages
import KFeedTestSupport
import Testing

@testable import KFeedServe

/// What a TRMNL device's headers choose (``TRMNLDevice``), which paths get CORS, and what the device log keeps
/// (``DeviceLogBook``).
@Suite
struct TRMNLDeviceTests {
    private static func device(_ fields: [(String, String)]) -> TRMNLDevice {
        var headers = HTTPFields()
        for (name, value) in fields { headers.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        return TRMNLDevice(headers: headers)
    }

    @Test func theHeadersChooseTheRenderWhateverTheirCase() {
        #expect(Self.device([]).profiles.map(\.name) == [DisplayProfile.trmnl.name])
        #expect(Self.device([("ID", "aa:bb:cc:dd:ee:ff")]).id == "AA:BB:CC:DD:EE:FF")
        #expect(
            Self.device([("FW-Version", "1.5.9"), ("Width", "800"), ("Height", "480")]).profiles.map(\.name) == [
                DisplayProfile.trmnl.name
            ]
        )
        #expect(
            Self.device([("fw-version", "1.6")]).profiles.map(\.name) == [
                DisplayProfile.trmnlGrey4.name, DisplayProfile.trmnl.name,
            ]
        )
        #expect(
            Self.device([("FW-Version", "2.0.1")]).profiles.map(\.name) == [
                DisplayProfile.trmnlGrey4.name, DisplayProfile.trmnl.name,
            ]
        )
        #expect(Self.device([("model", "X")]).profiles.map(\.name) == [DisplayProfile.trmnlX.name])
        #expect(
            Self.device([("width", "1872"), ("height", "1404")]).profiles.map(\.name) == [DisplayProfile.trmnlX.name]
        )
        let small = Self.device([("Width", "1024"), ("Height", "600")]).profiles
        #expect(small.map(\.name) == ["1024x600:mono:png"] && small[0].maxBytes == 90_000)
        let large = Self.device([("Width", "1200"), ("Height", "825")]).profiles
        #expect(large.map(\.name) == ["1200x825:grey16:png"] && large[0].maxBytes == 750_000)
        #expect(
            Self.device([("Width", "4000"), ("Height", "4000")]).profiles.map(\.name) == [DisplayProfile.trmnlX.name]
        )
        // Sizes that are no number, or out of range, are ignored.
        #expect(
            Self.device([("Width", "wide"), ("Height", "480")]).profiles.map(\.name) == [DisplayProfile.trmnl.name]
        )
        #expect(Self.device([("Width", "0"), ("Height", "99999")]).profiles.map(\.name) == [DisplayProfile.trmnl.name])
        // The feed's --profile list: the first it names, else the device's best.
        let og16 = Self.device([("FW-Version", "1.6.0")])
        #expect(og16.profile(allowed: ["trmnl"]).name == DisplayProfile.trmnl.name)
        #expect(og16.profile(allowed: nil).name == DisplayProfile.trmnlGrey4.name)
        #expect(og16.profile(allowed: ["frame"]).name == DisplayProfile.trmnlGrey4.name)
    }

    @Test func corsIsForTheDeviceAPICurrentJSONAndTheFeedsOnly() {
        for path in [
            "/api/setup", "/api/display", "/api/log", "/api/current_screen", "/current.json", "/feed.json", "/feed.xml",
            "/f/pets/api/display", "/f/pets/current.json", "/f/pets/feed.json", "/f/pets/feed.xml",
        ] {
            #expect(ServeResponder.isCrossOrigin(path), "\(path)")
        }
        for path in ["/", "/widget", "/current.jpg", "/timeline.json", "/healthz", "/f/pets", "/f/pets/widget", "/api"]
        {
            #expect(!ServeResponder.isCrossOrigin(path), "\(path)")
        }
    }

    @Test func theDeviceLogIsBoundedPerDeviceAndInDevicesAndReadBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let book = DeviceLogBook(directory: directory.url)
        let start = Date(timeIntervalSince1970: 1_764_000_000)
        let firmware = """
            {"log":{"logs_array":[{"log_message":"wifi weak","log_codeline":12,"log_sourcefile":"src/bl.cpp"},\
            {"log_message":"\(String(repeating: "x", count: 1_000))"},{"no_message":1}]}}
            """
        #expect(DeviceLogBook.messages(in: Array(firmware.utf8)).count == 2)
        #expect(DeviceLogBook.messages(in: Array(firmware.utf8)).first == "wifi weak (src/bl.cpp:12)")
        #expect(DeviceLogBook.messages(in: Array("plain\u{1B}text".utf8)) == ["plain?text"])
        #expect(DeviceLogBook.messages(in: []).isEmpty)
        for index in 0..<40 {
            let device = Self.device([
                ("ID", "AA:BB:CC:00:00:\(String(format: "%02X", index))"), ("RSSI", "-5\(index % 10)"),
            ])
            for message in 0..<25 {
                book.logged(["message \(message)"], by: device, at: start.addingTimeInterval(Double(index)))
            }
        }
        let read = DeviceLogBook.read(from: directory.url)
        #expect(read == book.all)
        #expect(read.count == DeviceLogBook.maxDevices)
        #expect(read.first?.id == "AA:BB:CC:00:00:27" && read.last?.id == "AA:BB:CC:00:00:08")
        #expect(read.allSatisfy { $0.logs.count == DeviceLogBook.maxEntries && $0.logs.last?.message == "message 24" })
        // A book made again from the directory keeps what was there.
        #expect(DeviceLogBook(directory: directory.url).all == read)
        // In memory without a directory.
        let memory = DeviceLogBook(directory: nil)
        memory.saw(Self.device([("ID", "AA"), ("Model", "x")]), profile: "trmnl-x", at: start)
        #expect(memory.all.first?.profile == "trmnl-x" && memory.all.first?.model == "x")
    }

    @Test func theRenderMadeAheadForADeviceIsTheOneItWasLastShown() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let book = DeviceLogBook(directory: directory.url)
        let start = Date(timeIntervalSince1970: 1_764_000_000)
        book.saw(Self.device([("ID", "AA:00:00:00:00:01"), ("Model", "x")]), profile: "trmnl-x", at: start)
        book.saw(
            Self.device([("ID", "AA:00:00:00:00:02"), ("FW-Version", "1.6.2")]),
            profile: "trmnl-grey4",
            at: start
        )
        book.saw(Self.device([("ID", "AA:00:00:00:00:03")]), profile: "no-such-profile", at: start)
        let devices = [
            "aa:00:00:00:00:01": "kpop",  // listed in lower case: IDs compare upper-case
            "AA:00:00:00:00:02": "kpop",
            "AA:00:00:00:00:03": "pets",  // a render kfeed no longer knows: trmnl
            "AA:00:00:00:00:04": "pets",  // not seen yet: trmnl
            "AA:00:00:00:00:05": "kpop",
        ]
        let renders = DeviceLogBook.renders(for: devices, in: directory.url)
        #expect(renders["kpop"].map { Set($0.map(\.name)) } == ["trmnl-x", "trmnl-grey4", "trmnl"])
        #expect(renders["kpop"]?.count == 3)
        #expect(renders["pets"]?.map(\.name) == ["trmnl"])
        // Without a book every device gets trmnl.
        let empty = try TemporaryDirectory()
        defer { empty.remove() }
        #expect(
            DeviceLogBook.renders(for: devices, in: empty.url).mapValues { $0.map(\.name) } == [
                "kpop": ["trmnl"], "pets": ["trmnl"],
            ]
        )
    }
}
