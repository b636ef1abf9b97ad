package io.seckill.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.seckill.api.NettyRequestGate.RequestLine;
import java.io.UncheckedIOException;

/** The Netty engine's problem+json answers, worded as {@link EngineProblems} words Tomcat's. */
final class EngineProblemWriter {

    private final ObjectMapper json;

    EngineProblemWriter(ObjectMapper json) {
        this.json = json;
    }

    /**
     * A complete answer that closes the connection (the engine answers it when it cannot trust what follows).
     *
     * @param detail what to say, or null for the engine's words for the status
     */
    FullHttpResponse answer(int status, RequestLine request, String detail) {
        String path = request == null || request.path() == null ? null : EngineProblems.echo(request.path());
        String said = detail != null ? detail : EngineProblems.detail(status, request == null ? null : request.method(),
                path, request == null ? null : request.contentType(), null, null);
        return answer(Problem.forStatus(status, said, path), HttpHeaderValues.CLOSE);
    }

    /** A problem as a complete answer, with this Connection header. */
    FullHttpResponse answer(Problem problem, CharSequence connection) {
        byte[] body;
        try {
            body = json.writeValueAsBytes(problem);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
        FullHttpResponse answer = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(problem.status()), Unpooled.wrappedBuffer(body));
        answer.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CONTENT_TYPE, Problem.MEDIA_TYPE)
                .set(HttpHeaderNames.CONNECTION, connection);
        return answer;
    }
}
