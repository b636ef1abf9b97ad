package io.seckill.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Answers 413 PAYLOAD_TOO_LARGE to a body over {@code seckill.api.max-body-size}, before anything reads it. A
 * declared Content-Length is checked as it is; a chunked body, whose length nobody knows in advance, is read here
 * up to one byte past the limit and handed on from memory.
 */
@Component
class BodySizeLimit extends OncePerRequestFilter {

    private final long maxBytes;

    BodySizeLimit(ApiProperties properties) {
        this.maxBytes = properties.maxBodySize().toBytes();
    }

    /**
     * The management side (the console, Jolokia) is behind the operator's login and sends bodies of its own size:
     * Hawtio asks Jolokia about every MBean in one request of some 200 KB.
     */
    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return request.getRequestURI().startsWith(request.getContextPath() + "/actuator/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long declared = request.getContentLengthLong();
        if (declared > maxBytes) {
            reject(request, response);
            return;
        }
        if (declared < 0 && request.getHeader("Transfer-Encoding") != null) {
            byte[] body = request.getInputStream().readNBytes((int) maxBytes + 1);
            if (body.length > maxBytes) {
                reject(request, response);
                return;
            }
            request = new BodyInMemory(request, body);
        }
        chain.doFilter(request, response);
    }

    private void reject(HttpServletRequest request, HttpServletResponse response) throws IOException {
        request.setAttribute(ProblemReportValve.DETAIL_ATTRIBUTE,
                "The body is larger than the limit of " + maxBytes + " bytes");
        response.sendError(HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE);
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
