import HTTPTypes
import Hummingbird

/// The paths `kfeed serve` answers (`docs/serve.md`), on Hummingbird's router: each feed's routes at the paths outside
/// `/f/` (the default feed) and, with a feeds file, in the route group `/f/:feed`. Every route takes every standard
/// method, so that a method it does not answer gets `405` with `Allow` (the router alone would say `404`); a path no
/// route has gets the server's own `404` (``NotFoundMiddleware``; `401` first when the key is required and missing).
/// No catch-all route (`**`): beside a route's parameter (`:file`) the router's validation (in debug builds) refuses
/// one.
extension ServeResponder {
    /// The methods every route is registered for.
    static let registeredMethods: [HTTPRequest.Method] = [
        .get, .head, .post, .put, .delete, .options, .patch, .trace, .connect,
    ]

    /// The router for this responder's feeds.
    func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: NotFoundMiddleware(responder: self))
        on(router, "/", feedsFile: false, feeds.servesFeedPaths ? .list : .route(.preview))
        routes(on: router, feedsFile: false)
        if feeds.servesFeedPaths {
            let group = router.group("f/:feed")
            on(group, "", feedsFile: true, .feedRoot)
            routes(on: group, feedsFile: true)
        }
        return router
    }

    /// One feed's routes (its page, `/`, is the caller's: the list or the default feed's page outside `/f/`).
    private func routes(on routes: some RouterMethods<BasicRequestContext>, feedsFile: Bool) {
        let fixed: [(RouterPath, Route)] = [
            ("widget", .widget), ("timeline.json", .timeline), ("current.json", .currentJSON),
            ("current.jpg", .currentImage), ("healthz", .health), ("api/setup", .setup), ("api/display", .display),
            ("api/log", .log), ("trmnl/redirect.json", .redirect), ("feed.json", .feed(.json)),
            ("feed.xml", .feed(.rss)), ("api/current_screen", .currentScreen), ("current.png", .frame),
            // The files a generation may name (`CacheStore.isGenerationFile`): one level under its folders, or a
            // top-level placeholder.
            ("images/:file", .file), ("avatars/:file", .file), ("renders/:file", .file), (":file", .file),
        ]
        for (path, route) in fixed { on(routes, path, feedsFile: feedsFile, .route(route)) }
    }

    /// Registers `target` at `path` for every method; `feedsFile`: the path is in the `/f/:feed` group.
    private func on(
        _ routes: some RouterMethods<BasicRequestContext>,
        _ path: RouterPath,
        feedsFile: Bool,
        _ target: Target
    ) {
        for method in Self.registeredMethods {
            routes.on(path, method: method) { request, context in
                await respond(to: request, target: target, feed: feedsFile ? context.parameters.get("feed") : nil)
            }
        }
    }
}

/// The answer to a path no route has, instead of Hummingbird's bare `404`: the router answers such a path from its
/// not-found responder, which runs inside the router's middleware.
struct NotFoundMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    let responder: ServeResponder

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            // Under `/f/`, the feed the path names (so that an unknown one is said to be unknown).
            let path = request.uri.path
            let feed =
                responder.feeds.servesFeedPaths && path.hasPrefix("/f/")
                ? path.dropFirst(3).prefix { $0 != "/" } : nil
            return await responder.respond(to: request, target: .unknown, feed: feed.map(String.init))
        }
    }
}
