import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedImages
import KFeedTestSupport
import Testing

/// `kfeed refresh --force` against a real HTTP server on 127.0.0.1 that serves the API and the images: the cache
/// fills with downscaled images and avatars, placeholders where images fail (with the reason), and the token
/// reaches the API only.
@Suite(.timeLimit(.minutes(2)))
struct LoopbackRefreshTests {
    private static let token = "AAAAloopbackRefreshToken0123456789"

    /// Width and height from a baseline JPEG's SOF0 segment.
    private static func baselineFrameSize(of jpeg: Data) -> [Int]? {
        let bytes = [UInt8](jpeg)
        guard let sof = (0..<(bytes.count - 9)).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) else {
            return nil
        }
        return [Int(bytes[sof + 7]) << 8 | Int(bytes[sof + 8]), Int(bytes[sof + 5]) << 8 | Int(bytes[sof + 6])]
    }

    @Test func refreshFillsTheCacheFromTheServerAndTimelineShowsTheSameManifest() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        let search = try Fixture.data("recent-search.kpop.json")
        // A progressive photo, as pbs.twimg.com serves most: downscaled by the first-pass decoder at 1/2.
        let photo = try TestJPEG.jpeg(
            TestJPEG.gradient(width: 1_600, height: 1_200),
            width: 1_600,
            height: 1_200,
            progressive: true
        )
        let avatar = JPEGThumbnailer.placeholder(size: ImageSize(width: 400, height: 400))
        let handler: @Sendable (LoopbackServer.Request) -> LoopbackServer.Response = { request in
            let host = request[header: "Host"] ?? "127.0.0.1"
            let jpeg = [HTTPHeader("Content-Type", "image/jpeg")]
            switch request.path {
            case RecentSearchRequest.path:
                let body = String(decoding: search, as: UTF8.self)
                    .replacingOccurrences(of: "https://pbs.twimg.com", with: "http://\(host)")
                return .init(headers: [HTTPHeader("Content-Type", "application/json")], body: Data(body.utf8))
            case let path where path.hasPrefix("/profile_images/"):
                return .init(headers: jpeg, body: avatar)
            case let path where path.hasPrefix("/media/GkP00103"):
                return .text("not here", status: 404)  // neither the rendition nor the plain URL
            case let path where path.hasPrefix("/media/GkP00104"):
                return .init(headers: jpeg, body: Data("<!doctype html><p>error</p>".utf8))
            default:
                return .init(headers: jpeg, body: photo)
            }
        }
        try await LoopbackServer.withServer(handler) { server in
            let environment = ["X_BEARER_TOKEN": Self.token, "NO_PROXY": "*"]
            // Every photo is the same picture: no history, or they would all count as one.
            let base = ["--api-base", server.baseURL.absoluteString, "--cache", cache.path, "--no-repeat-days", "0"]
            let refresh = try await KFeedProcess.run(["refresh", "--force"] + base, environment: environment)
            #expect(refresh.status == 0, "\(refresh.stderr)")
            #expect(refresh.stdout.isEmpty && refresh.stderr.isEmpty)

            let manifest = try #require(try CacheStore(directory: cache).manifest())
            #expect(manifest.entries.count == 4)
            for entry in manifest.entries {
                let image = try #require(entry.image)
                let data = try Data(contentsOf: cache.appendingPathComponent(image))
                #expect(data.starts(with: [0xFF, 0xD8, 0xFF]))
                #expect(Self.baselineFrameSize(of: data) == [340, 340], "\(image)")  // `small`
                let avatarPath = try #require(entry.author.avatar)
                #expect(avatarPath.hasPrefix("avatars/"))
                #expect(FileManager.default.fileExists(atPath: cache.appendingPathComponent(avatarPath).path))
            }
            let reasons = Dictionary(
                uniqueKeysWithValues: manifest.entries.map { ($0.media.key, $0.placeholderReason) }
            )
            #expect(reasons["3_1859170000000100101"] == .some(nil))
            #expect(reasons["3_1859170000000100103"] == "download failed (HTTP 404)")
            #expect(reasons["3_1859170000000100104"] == "not a JPEG")

            // Renditions are asked of pbs.twimg.com only (ImageRenditionTests); here the URL is used as given.
            // The token goes to the API requests only.
            let requests = server.requests
            #expect(requests.contains { $0.target == "/media/GkP00103aXoAAqzR.jpg" })
            for request in requests {
                let isAPI = request.path == RecentSearchRequest.path
                #expect((request[header: "Authorization"] == "Bearer \(Self.token)") == isAPI, "\(request.target)")
            }
            let cacheText = try FileManager.default.subpathsOfDirectory(atPath: cache.path)
                .compactMap { FileManager.default.contents(atPath: cache.appendingPathComponent($0).path) }
                .map { String(decoding: $0, as: UTF8.self) }
            #expect(!cacheText.contains { $0.contains(Self.token) })

            let timeline = try await KFeedProcess.run(["timeline", "--json"] + base, environment: environment)
            #expect(timeline.status == 0)
            #expect(try Manifest.decode(Data(timeline.stdout.utf8)) == manifest)
        }
    }
}
