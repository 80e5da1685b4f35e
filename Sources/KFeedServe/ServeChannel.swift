import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// HTTP/1.1 connections as Hummingbird's `HTTP1Channel` sets them up (HTTP codec, connection state with the idle
/// timeout), with ``ImmediateFileHandler`` after the connection state so that images are answered on the event loop.
/// (`HTTP1Channel`'s `additionalChannelHandlers` go before the connection state handler, which then would not see
/// the requests answered here and would close a busy connection as idle.) Kept only for the measured gain of
/// ``ImmediateFileHandler``.
struct ServeChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let immediate: ServeResponder
    /// How long a connection may be idle, or take to send a request's headers.
    let idleTimeout: Duration

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false,  // the asynchronous channel answers in order
                withErrorHandling: false,  // Hummingbird's handler answers parse errors
                withOutboundHeaderValidation: false,  // HTTPTypes validates
                withEncoderConfiguration: .init(),
                withDecoderLimitConfiguration: .init()
            )
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: idleTimeout, logger: logger))
            try pipeline.addHandler(ImmediateFileHandler(responder: immediate))
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel,
                configuration: .init(isOutboundHalfClosureEnabled: true)
            )
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}
