import Foundation
import KFeedBase
import Testing

@testable import KFeed
@testable import KFeedImages

struct DisplayProfileTests {
    static let presets: [(String, Int, Int, DisplayProfile.Kind, String)] = [
        ("trmnl", 800, 480, .mono, "png"),
        ("trmnl-bmp", 800, 480, .mono, "bmp"),
        ("trmnl-grey4", 800, 480, .grey4, "png"),
        ("trmnl-x", 1_872, 1_404, .grey16, "png"),
        ("grey4", 800, 480, .grey4, "png"),
        ("inky7", 800, 480, .color7, "png"),
        ("spectra6", 800, 480, .spectra6, "png"),
        ("spectra6-13", 1_600, 1_200, .spectra6, "png"),
        ("inkplate", 800, 600, .grey16, "jpg"),
        ("inkplate10", 1_200, 825, .grey16, "jpg"),
        ("inkplate6plus", 1_024, 758, .grey16, "jpg"),
        ("frame", 1_280, 800, .rgb, "jpg"),
    ]

    @Test(arguments: presets)
    func presetsHaveTheContractsSizeKindAndFormat(
        name: String,
        width: Int,
        height: Int,
        kind: DisplayProfile.Kind,
        fileExtension: String
    ) throws {
        let profile = try DisplayProfile(parsing: name)
        #expect(profile.name == name)
        #expect(profile.width == width && profile.height == height)
        #expect(profile.kind == kind)
        #expect(profile.fileExtension == fileExtension)
        #expect(profile.sourceSize == ImageSize(width: width, height: height))
    }

    @Test func onlyTRMNLsHaveAByteCap() {
        #expect(DisplayProfile.trmnl.maxBytes == 90_000)
        #expect(DisplayProfile.trmnlGrey4.maxBytes == 90_000)
        #expect(DisplayProfile.trmnlX.maxBytes == 750_000)
        let capped = DisplayProfile.presets.filter { $0.maxBytes != nil }.map(\.name)
        #expect(capped == ["trmnl", "trmnl-grey4", "trmnl-x"])
        #expect(DisplayProfile.frame.jpegQuality == 85)
    }

    static let custom: [(String, Int, Int, DisplayProfile.Kind, DisplayProfile.Format)] = [
        ("640x384:grey4", 640, 384, .grey4, .png),
        ("1024x600:rgb", 1_024, 600, .rgb, .jpeg),
        ("1024x600:rgb:png", 1_024, 600, .rgb, .png),
        ("400x300:mono:bmp", 400, 300, .mono, .bmp),
        ("600x448:COLOR7", 600, 448, .color7, .png),
        ("1600x1200:spectra6", 1_600, 1_200, .spectra6, .png),
        ("800x480:spectra6:bmp", 800, 480, .spectra6, .bmp),
        ("800x600:grey16:jpg", 800, 600, .grey16, .jpeg),
        ("800x600:grey16:jpeg", 800, 600, .grey16, .jpeg),
        ("296x128:grey4:bmp", 296, 128, .grey4, .bmp),
    ]

    @Test(arguments: custom)
    func parsesWidthHeightKindAndFormat(
        text: String,
        width: Int,
        height: Int,
        kind: DisplayProfile.Kind,
        format: DisplayProfile.Format
    ) throws {
        let profile = try DisplayProfile(parsing: text)
        #expect(profile.width == width && profile.height == height)
        #expect(profile.kind == kind)
        #expect(profile.format == format)
        #expect(profile.name == text.lowercased())
        #expect(profile.maxBytes == nil)
    }

    @Test func pathComponentsAreSafeFileNames() throws {
        #expect(DisplayProfile.trmnlBMP.pathComponent == "trmnl-bmp")
        #expect(try DisplayProfile(parsing: "800x480:Mono:PNG").pathComponent == "800x480-mono-png")
    }

    static let refused: [(String, String)] = [
        ("800x480:rgb:bmp", "write 800x480:rgb:jpg or 800x480:rgb:png"),
        ("800x480:mono:jpg", "write 800x480:mono:png or 800x480:mono:bmp"),
        ("800x480:color7:jpg", "write 800x480:color7:png"),
        ("800x480:grey4:jpg", "write 800x480:grey4:png"),
        ("10x480:mono", "16 to 4096"),
        ("800x5000:mono", "16 to 4096"),
        ("800x480:spectra6:jpg", "write 800x480:spectra6:png"),
        ("800x480:cmyk", "use one of mono, grey4, grey16, color7, spectra6, rgb"),
        ("800x480:mono:gif", "use png, bmp or jpg"),
        (
            "kindle",
            "use trmnl, trmnl-bmp, trmnl-grey4, trmnl-x, grey4, inky7, spectra6, spectra6-13, inkplate, inkplate10, "
                + "inkplate6plus, frame or WxH:KIND[:FORMAT]"
        ),
        ("800x480", "WxH:KIND[:FORMAT]"),
    ]

    @Test(arguments: refused)
    func refusesImpossibleProfilesSayingWhatToWrite(text: String, advice: String) {
        let error = #expect(throws: KFeedError.self) { try DisplayProfile(parsing: text) }
        #expect(error?.code == .usage)
        #expect(error?.message.contains(advice) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("\n") == false)
    }
}
