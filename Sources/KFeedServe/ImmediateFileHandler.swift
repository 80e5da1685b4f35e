import Foundation
import HTTPTypes
import Hummingbird
import KFeed
import NIOCore
import NIOHTTPTypes

/// Answers `GET`/`HEAD` of `/current.jpg` and the files (images, avatars, renders) on the event loop, from memory,
/// without the per-request task of Hummingbird's asynchronous path; every other request passes on to the router
/// unchanged. The answers are the responder's own (``ServeResponder/immediateAnswer(to:)``).
///
/// A measured exception to serving through the router alone (`bench/serve.sh`, `/current.jpg` at 64 connections, on
/// 2026-11-26 with two cores shared with other builds: 22,758 requests/s with it against 15,975 without, +42 %, as
/// nginx served 32,750). It needs ``ServeChannel``, Hummingbird's HTTP/1.1 pipeline with this handler after the
/// connection state handler.
///
/// Sits after `HTTPConnectionStateHandler`, which so still sees every request and answer (idle timeout, graceful
/// shutdown). Answers stay in request order: a request is answered here only while no earlier request of the
/// connection is still with the asynchronous path.
final class ImmediateFileHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let responder: ServeResponder
    /// Requests passed on whose answer's end has not been written yet.
    private var passedOn = 0
    /// The request being answered here: its answer, written when its end arrives (its body is dropped).
    private var pending: (head: HTTPRequest, answer: ServeAnswer, elapsed: Stopwatch)?
    /// The `Date` header, made again when the second changes: the system's time, as Hummingbird writes it on the
    /// router's answers (HTTP's own framing, not the server's clock, which `--now` may set).
    private var date: (second: Int, text: String) = (0, "")

    init(responder: ServeResponder) {
        self.responder = responder
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if passedOn <= 0, pending == nil, let answer = responder.immediateAnswer(to: head) {
                pending = (head, answer, Stopwatch(responder.settings.clock))
                return
            }
            passedOn += 1
            context.fireChannelRead(data)
        case .body:
            if pending != nil { return }
            context.fireChannelRead(data)
        case .end:
            guard let (head, answer, elapsed) = pending else {
                context.fireChannelRead(data)
                return
            }
            pending = nil
            let (status, headers, body) = answer.parts(
                isHead: head.method == .head,
                ifNoneMatch: head.headerFields[.ifNoneMatch]
            )
            var fields = headers
            fields[.server] = "kfeed"
            let second = Int(Date().timeIntervalSince1970)
            if second != date.second {
                date = (second, InstantFormat.httpDate(from: Date(timeIntervalSince1970: Double(second))))
            }
            fields[.date] = date.text
            context.write(wrapOutboundOut(.head(HTTPResponse(status: status, headerFields: fields))), promise: nil)
            if let body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            if responder.settings.isVerbose {
                responder.logRequest(
                    method: head.method,
                    path: String((head.path ?? "").prefix { $0 != "?" }),
                    hasQuery: head.path?.utf8.contains(UInt8(ascii: "?")) == true,
                    status: status.code,
                    bytes: answer.body.readableBytes,
                    milliseconds: elapsed.milliseconds
                )
            }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { passedOn -= 1 }
        context.write(data, promise: promise)
    }
}
