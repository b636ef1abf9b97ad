package io.seckill.api;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import java.util.List;
import org.apache.camel.CamelContext;
import org.apache.camel.component.netty.DefaultChannelHandlerFactory;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;

/**
 * The Netty engine's gate, right after its request decoder: answers here, as problem+json, what Tomcat refuses
 * before any servlet sees it (a request line or header it cannot read, an HTTP version or transfer coding it does not
 * speak, a path with a malformed or encoded-slash escape) and what Spring MVC refused for the servlet engine (a body
 * that is not JSON, an Accept that rules JSON out), and 503 while the routes are not running (the port is bound as
 * the first route starts) or the service warms itself up ({@link WarmUpRequests}). Each channel has its own gate: it remembers its request for {@link NettyProblemAnswers}
 * and drops the rest of a refused one.
 */
final class NettyRequestGate extends ChannelInboundHandlerAdapter {

    /** The request a channel is answering, for the problem an engine answer is turned into. */
    static final AttributeKey<RequestLine> REQUEST = AttributeKey.valueOf("seckill.request");

    record RequestLine(String method, String path, String contentType) {
    }

    private static final String RETRY_AFTER_SECONDS = "1";

    private final CamelContext camel;
    private final WarmUpRequests warmUp;
    private final EngineProblemWriter problems;
    /** Set once this channel's request is refused: what is left of it is dropped. */
    private boolean refused;

    NettyRequestGate(CamelContext camel, EngineProblemWriter problems, WarmUpRequests warmUp) {
        this.camel = camel;
        this.warmUp = warmUp;
        this.problems = problems;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest request) {
            refused = false;
            RequestLine line = new RequestLine(request.method().name(), path(request.uri()),
                    request.headers().get(HttpHeaderNames.CONTENT_TYPE));
            ctx.channel().attr(REQUEST).set(line);
            declineUpgrade(request);
            FullHttpResponse refusal = refusal(request, line);
            if (refusal != null) {
                refused = true;
                ReferenceCountUtil.release(msg);
                // From the pipeline's tail, through the response encoder (which sits after this gate).
                ctx.channel().writeAndFlush(refusal).addListener(ChannelFutureListener.CLOSE);
                return;
            }
        } else if (refused && msg instanceof HttpContent) {
            ReferenceCountUtil.release(msg);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    private FullHttpResponse refusal(HttpRequest request, RequestLine line) {
        if (request.decoderResult().isFailure()) {
            return problems.answer(400, new RequestLine(line.method(), null, null), null);
        }
        if (request.protocolVersion() != HttpVersion.HTTP_1_1 && request.protocolVersion() != HttpVersion.HTTP_1_0) {
            return problems.answer(505, line, null);
        }
        String coding = request.headers().get(HttpHeaderNames.TRANSFER_ENCODING);
        if (coding != null && !HttpHeaderValues.CHUNKED.contentEqualsIgnoreCase(coding.trim())) {
            return problems.answer(501, line, null);
        }
        if (!validTarget(request.uri())) {
            return problems.answer(400, new RequestLine(line.method(), null, null), null);
        }
        if (!camel.isStarted()
                || line.path().startsWith("/api") && !warmUp.open(request.headers().get(WarmUpRequests.HEADER))) {
            FullHttpResponse answer = problems.answer(503, line,
                    "The service is starting or stopping; retry in " + RETRY_AFTER_SECONDS + " s");
            answer.headers().set(HttpHeaderNames.RETRY_AFTER, RETRY_AFTER_SECONDS);
            return answer;
        }
        if (!line.path().startsWith("/api")) {
            return null;
        }
        if (!acceptsJson(request.headers().get(HttpHeaderNames.ACCEPT))) {
            return problems.answer(406, line, null);
        }
        boolean hasBody = HttpUtil.getContentLength(request, 0L) > 0 || HttpUtil.isTransferEncodingChunked(request);
        if (hasBody && !isJson(line.contentType())) {
            return problems.answer(415, line, null);
        }
        return null;
    }

    /**
     * No protocol is switched to here (Java's HttpClient offers h2c on every request): the request is served as
     * HTTP/1.1, and Netty's binding, which answers with the request's Connection header, does not echo the offer.
     */
    private static void declineUpgrade(HttpRequest request) {
        if (request.headers().contains(HttpHeaderNames.UPGRADE)) {
            boolean close = request.headers().containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE, true);
            request.headers().remove(HttpHeaderNames.UPGRADE).remove("HTTP2-Settings")
                    .set(HttpHeaderNames.CONNECTION, close ? HttpHeaderValues.CLOSE : HttpHeaderValues.KEEP_ALIVE);
        }
    }

    private static String path(String uri) {
        int query = uri.indexOf('?');
        return query < 0 ? uri : uri.substring(0, query);
    }

    /** As Tomcat takes a request target: escapes well formed, no encoded slash, no character RFC 3986 leaves out. */
    static boolean validTarget(String uri) {
        if (!uri.startsWith("/")) {
            return false;
        }
        String path = path(uri);
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '%') {
                if (i + 2 >= path.length() || Character.digit(path.charAt(i + 1), 16) < 0
                        || Character.digit(path.charAt(i + 2), 16) < 0) {
                    return false;
                }
                String escaped = path.substring(i + 1, i + 3);
                if (escaped.equalsIgnoreCase("2F") || escaped.equalsIgnoreCase("5C")) {
                    return false;
                }
            } else if (c <= ' ' || c >= 0x7f || "\"<>\\^`{|}".indexOf(c) >= 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean acceptsJson(String accept) {
        if (accept == null || accept.isBlank()) {
            return true;
        }
        try {
            List<MediaType> types = MediaType.parseMediaTypes(accept);
            return types.stream().anyMatch(type -> type.getQualityValue() > 0
                    && (type.isCompatibleWith(MediaType.APPLICATION_JSON)
                            || type.isCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)));
        } catch (InvalidMediaTypeException e) {
            return false;
        }
    }

    private static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        try {
            return MediaType.APPLICATION_JSON.isCompatibleWith(MediaType.parseMediaType(contentType));
        } catch (InvalidMediaTypeException e) {
            return false;
        }
    }

    /** The pipeline's {@code decoders} entry: a gate for each channel. */
    static final class Factory extends DefaultChannelHandlerFactory {

        private final CamelContext camel;
        private final EngineProblemWriter problems;
        private final WarmUpRequests warmUp;

        Factory(CamelContext camel, EngineProblemWriter problems, WarmUpRequests warmUp) {
            this.camel = camel;
            this.problems = problems;
            this.warmUp = warmUp;
        }

        @Override
        public ChannelHandler newChannelHandler() {
            return new NettyRequestGate(camel, problems, warmUp);
        }
    }
}
