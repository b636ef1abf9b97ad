package io.seckill.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Reads an API request's body into memory before anything else does, without holding a thread while it arrives
 * (the Servlet API's non-blocking reads): at most {@code seckill.api.max-body-size} (past it 413 PAYLOAD_TOO_LARGE,
 * a declared Content-Length unread), the whole of it within {@code seckill.api.body-deadline} (else 408
 * REQUEST_TIMEOUT and the connection closed). Left to Tomcat, the body was read on the request thread when the
 * route asked for it, each read waiting up to the connection timeout afresh: a body sent a byte a second held a
 * thread as long as its client liked, and 96 of them every thread, the probes' included. Once the body is in, the
 * request goes on in an async dispatch with the body in memory, so the route never waits for the network.
 *
 * <p>The last of the filters (the others skip async dispatches): a request refused by one of them is refused before
 * its body is read.
 */
@Component
@Order(Ordered.LOWEST_PRECEDENCE)
class BodyReader extends OncePerRequestFilter {

    /** The body, read, for the async dispatch. */
    private static final String BODY = BodyReader.class.getName() + ".body";

    private final long maxBytes;
    private final long deadlineMillis;
    private final ObjectMapper json;

    BodyReader(ApiProperties properties, ObjectMapper json) {
        this.maxBytes = properties.maxBodySize().toBytes();
        this.deadlineMillis = properties.bodyDeadline().toMillis();
        this.json = json;
    }

    /**
     * The management side (the console, Jolokia) is behind the operator's login and sends bodies of its own size:
     * Hawtio asks Jolokia about every MBean in one request of some 200 KB.
     */
    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return request.getRequestURI().startsWith(request.getContextPath() + "/actuator/");
    }

    /** The request comes back here once its body is read. */
    @Override
    protected boolean shouldNotFilterAsyncDispatch() {
        return false;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getDispatcherType() == DispatcherType.ASYNC) {
            chain.doFilter(request.getAttribute(BODY) instanceof byte[] body ? new BodyInMemory(request, body)
                    : request, response);
            return;
        }
        long declared = request.getContentLengthLong();
        if (declared > maxBytes) {
            tooLarge(request, response);
            return;
        }
        if (declared == 0 || declared < 0 && request.getHeader("Transfer-Encoding") == null) {
            chain.doFilter(request, response);
            return;
        }
        AsyncContext async = request.startAsync(request, response);
        async.setTimeout(deadlineMillis);
        BodyRead read = new BodyRead(request.getInputStream(), async);
        async.addListener(read);
        request.getInputStream().setReadListener(read);
    }

    private void tooLarge(HttpServletRequest request, HttpServletResponse response) throws IOException {
        request.setAttribute(ProblemReportValve.DETAIL_ATTRIBUTE, tooLargeDetail());
        response.sendError(HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE);
    }

    private String tooLargeDetail() {
        return "The body is larger than the limit of " + maxBytes + " bytes";
    }

    /**
     * A refusal while the body is read, answered here and now: Tomcat's error report (ProblemReportValve) does not
     * run for an asynchronous request. The rest of the body may still come and is not read, so the connection
     * closes.
     */
    private void refuse(AsyncContext async, int status, String detail) {
        HttpServletRequest request = (HttpServletRequest) async.getRequest();
        HttpServletResponse response = (HttpServletResponse) async.getResponse();
        try {
            byte[] body = json.writeValueAsBytes(Problem.forStatus(status, detail,
                    EngineProblems.echo(request.getRequestURI())));
            response.setStatus(status);
            response.setHeader(HttpHeaders.CONNECTION, "close");
            response.setContentType(Problem.MEDIA_TYPE);
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
        } catch (IOException | IllegalStateException clientGone) {
            // nobody left to tell
        }
        async.complete();
    }

    /**
     * Takes the body as Tomcat hands it over, on whichever container thread has bytes for it, and decides once: the
     * request goes on with its body, or is refused as too large, or as too slow when the deadline (the async
     * timeout) has passed.
     */
    private final class BodyRead implements ReadListener, AsyncListener {

        private final ServletInputStream in;
        private final AsyncContext async;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private final byte[] buffer = new byte[8192];
        private final AtomicBoolean decided = new AtomicBoolean();

        BodyRead(ServletInputStream in, AsyncContext async) {
            this.in = in;
            this.async = async;
        }

        @Override
        public void onDataAvailable() throws IOException {
            while (in.isReady() && !in.isFinished()) {
                int read = in.read(buffer);
                if (read < 0) {
                    return;
                }
                body.write(buffer, 0, read);
                if (body.size() > maxBytes) {
                    if (decided.compareAndSet(false, true)) {
                        refuse(async, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE, tooLargeDetail());
                    }
                    return;
                }
            }
        }

        @Override
        public void onAllDataRead() {
            if (decided.compareAndSet(false, true)) {
                async.getRequest().setAttribute(BODY, body.toByteArray());
                async.dispatch();
            }
        }

        /** The client went away or broke the framing: nobody to answer. */
        @Override
        public void onError(Throwable failure) {
            if (decided.compareAndSet(false, true)) {
                async.complete();
            }
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            if (decided.compareAndSet(false, true)) {
                refuse(async, HttpServletResponse.SC_REQUEST_TIMEOUT, "The body did not arrive within "
                        + deadlineMillis + " ms (seckill.api.body-deadline)");
            }
        }

        @Override
        public void onComplete(AsyncEvent event) {
        }

        @Override
        public void onError(AsyncEvent event) {
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
        }
    }

    /** A request whose body was read already. */
    private static final class BodyInMemory extends HttpServletRequestWrapper {

        private final byte[] body;

        BodyInMemory(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] buffer, int offset, int length) {
                    return in.read(buffer, offset, length);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("The body was read already");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(getInputStream(), charset(getCharacterEncoding())));
        }

        private static Charset charset(String encoding) {
            try {
                return encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
            } catch (IllegalArgumentException unknown) {
                return StandardCharsets.UTF_8;
            }
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }
}
