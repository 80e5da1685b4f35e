import Foundation
package import Hummingbird
import HummingbirdCore
package import KFeed
import KFeedBase
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// `kfeed serve`: the cache over HTTP for widgets, Home Assistant, TRMNL panels and browsers (`docs/serve.md`).
package enum KFeedServer {
    /// Listens, answers until SIGTERM or SIGINT, then stops accepting, finishes in-flight answers (at most
    /// `shutdownTimeout`) and returns.
    /// - Parameters:
    ///   - configuration: what to serve, where and to whom.
    ///   - onListening: called once with the address bound (the real port when 0 was asked for).
    /// - Throws: `KFeedError` `.configuration` when the address cannot be bound.
    package static func run(
        _ configuration: ServeConfiguration,
        onListening: @escaping @Sendable (ListenAddress) -> Void
    ) async throws {
        let app = try application(configuration, onListening: onListening)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: app)]
        if let refresh = configuration.refresh {
            services.append(
                .init(
                    service: RefreshService(
                        refresh: refresh,
                        interval: configuration.refreshCheckInterval,
                        clock: configuration.clock
                    ),
                    successTerminationBehavior: .ignore,
                    failureTerminationBehavior: .ignore
                )
            )
        }
        var group = ServiceGroupConfiguration(
            services: services,
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: quietLogger
        )
        group.maximumGracefulShutdownDuration = configuration.shutdownTimeout
        group.maximumCancellationDuration = .seconds(1)
        do {
            try await ServiceGroup(configuration: group).run()
        } catch let error as KFeedError {
            throw error
        } catch {
            throw KFeedError(
                .configuration,
                "cannot listen on \(configuration.listen): \(error); choose another --listen address",
                underlying: error
            )
        }
    }

    /// The server as a Hummingbird application: `configuration`'s routes on its router, HTTP/1.1 connections
    /// with the header and idle timeout (``ServeChannel``: Hummingbird's, with ``ImmediateFileHandler`` in it).
    /// ``run(_:onListening:)`` runs it; tests call it in process
    /// (`HummingbirdTesting`'s `app.test(.router)`).
    /// - Throws: `KFeedError` `.configuration` when a key is set and its URLs cannot be signed (no libcrypto).
    package static func application(
        _ configuration: ServeConfiguration,
        onListening: @escaping @Sendable (ListenAddress) -> Void = { _ in }
    ) throws -> Application<RouterResponder<BasicRequestContext>> {
        let responder = try ServeResponder(settings: configuration)
        for feed in responder.feeds.all { _ = feed.cache.current() }
        let timeout = configuration.headerTimeout.components
        return Application(
            router: responder.router(),
            server: HTTPServerBuilder { handler in
                ServeChannel(responder: handler, immediate: responder, idleTimeout: .seconds(max(1, timeout.seconds)))
            },
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.listen.host, port: configuration.listen.port),
                serverName: "kfeed",
                availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections)
            ),
            onServerRunning: { channel in
                var address = configuration.listen
                if let port = channel.localAddress?.port { address.port = port }
                configuration.boundAddress.withLock { $0 = address }
                onListening(address)
            },
            logger: quietLogger
        )
    }

    /// Hummingbird's and the service group's own logger: only what stops the server (its lines are not kfeed's;
    /// the server's own go through ``ServeConfiguration/logger``).
    private static var quietLogger: Logger {
        var logger = Logger(label: "kfeed-serve.framework")
        logger.logLevel = .critical
        return logger
    }
}
