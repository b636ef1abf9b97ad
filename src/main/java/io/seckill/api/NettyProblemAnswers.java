package io.seckill.api;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.util.ReferenceCountUtil;
import org.apache.camel.component.netty.DefaultChannelHandlerFactory;

/**
 * Turns an error the Netty engine answers by itself — 404 for a path no route has, 405 for a method a path does not
 * allow, 413 for a body over the limit, all without a body — into problem+json, as {@link ProblemReportValve} does
 * for Tomcat. The routes' own errors are problem+json already and pass untouched, and so does a probe's DOWN
 * ({@link HealthProbes}: the actuator's own answer). It sits just before Netty's
 * response encoder (the pipeline's {@code encoders} entry), so it sees every answer whole.
 */
@ChannelHandler.Sharable
final class NettyProblemAnswers extends ChannelOutboundHandlerAdapter {

    private final EngineProblemWriter problems;

    NettyProblemAnswers(EngineProblemWriter problems) {
        this.problems = problems;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpResponse response && response.status().code() >= 400 && !isProblem(response)) {
            FullHttpResponse problem = problems.answer(response.status().code(),
                    ctx.channel().attr(NettyRequestGate.REQUEST).get(), null);
            String allow = response.headers().get(HttpHeaderNames.ALLOW);
            if (allow != null) {
                problem.headers().set(HttpHeaderNames.ALLOW, allow);
            }
            ReferenceCountUtil.release(msg);
            ctx.write(problem, promise);
            return;
        }
        ctx.write(msg, promise);
    }

    private static boolean isProblem(HttpResponse response) {
        String type = response.headers().get(HttpHeaderNames.CONTENT_TYPE);
        return type != null && (type.startsWith(Problem.MEDIA_TYPE) || type.startsWith(HealthProbes.CONTENT_TYPE));
    }

    /** The pipeline's {@code encoders} entry: one handler serves every channel. */
    static final class Factory extends DefaultChannelHandlerFactory {

        private final NettyProblemAnswers answers;

        Factory(EngineProblemWriter problems) {
            this.answers = new NettyProblemAnswers(problems);
        }

        @Override
        public ChannelHandler newChannelHandler() {
            return answers;
        }
    }
}
