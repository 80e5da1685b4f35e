import KFeedBase
import Testing

@testable import KFeed
@testable import KFeedImages

struct ImageSizeTests {
    @Test(arguments: [
        ("small", ImageSize.small), ("MEDIUM", .medium), ("large", .large),
        ("300x200", ImageSize(width: 300, height: 200)),
    ])
    func parsesPresetsAndDimensions(text: String, expected: ImageSize) throws {
        #expect(try ImageSize(parsing: text) == expected)
    }

    @Test(arguments: ["huge", "", "0x10", "10x", "x10", "5000x100", "1000x1000", "-5x20", "20x20x20"])
    func rejectsUnknownSizes(text: String) {
        let error = #expect(throws: KFeedError.self) { try ImageSize(parsing: text) }
        #expect(error?.code == .usage)
    }

    @Test func presetsStayUnderTheWidgetAreaLimit() {
        for size in [ImageSize.small, .medium, .large, .avatar] {
            #expect(size.width * size.height < ImageSize.maxArea)
        }
    }
}
