package io.seckill.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tomcat's last word on a failed request, as problem+json instead of an HTML page. The routes answer their own
 * problems; every other error ends here: an unknown path (404), a verb the path does not take (405), a content
 * type or Accept the API does not serve (415, 406) — Spring MVC decides those while matching the platform-http
 * mappings and calls {@code sendError} —, a body over the limit or too slow (413, 408, {@link BodyReader}), and requests Tomcat
 * rejects before any servlet sees them (a malformed request line, URL or header: 400; an unknown HTTP version:
 * 505), and an exception that escaped a route, which platform-http answers 500 with an empty body. Details are
 * composed here from the request, never taken from an exception, so no answer carries a stack trace or a class
 * name.
 */
public class ProblemReportValve extends ErrorReportValve {

    /** A request attribute with the detail of an error our own code raised with {@code sendError}. */
    public static final String DETAIL_ATTRIBUTE = ProblemReportValve.class.getName() + ".detail";

    private static final Logger log = LoggerFactory.getLogger(ProblemReportValve.class);

    private final ObjectMapper json;

    public ProblemReportValve(ObjectMapper json) {
        this.json = json;
    }

    @Override
    protected void report(Request request, Response response, Throwable failure) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0) {
            return;
        }
        // An error status someone set without a body (platform-http does so for an exception that escaped a
        // route) is reported like one raised with sendError.
        if (!response.isError()) {
            response.setError();
        }
        if (!response.setErrorReported()) {
            return;
        }
        if (failure != null) {
            log.error("Request {} failed", request.getRequestURI(), failure);
        }
        String path = path(request);
        Problem problem = Problem.forStatus(status, detail(request, response, status, path), path);
        try {
            String body = json.writeValueAsString(problem);
            response.setContentType(Problem.MEDIA_TYPE);
            response.setCharacterEncoding("UTF-8");
            response.setContentLength(body.getBytes(StandardCharsets.UTF_8).length);
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(body);
                response.finishResponse();
            }
        } catch (JsonProcessingException e) {
            log.error("Problem for status {} could not be written", status, e);
        } catch (IOException | IllegalStateException e) {
            // The client has gone or the response cannot take a body any more: nothing left to tell anyone.
        }
    }

    private static String detail(Request request, Response response, int status, String path) {
        Object own = request.getAttribute(DETAIL_ATTRIBUTE);
        if (own != null) {
            return own.toString();
        }
        return EngineProblems.detail(status, request.getMethod(), path, request.getContentType(),
                response.getHeader("Allow"), response.getHeader("Accept"));
    }

    /** The request's path, when it is one that can be repeated back. */
    private static String path(Request request) {
        String uri;
        try {
            uri = request.getRequestURI();
        } catch (RuntimeException e) {
            return null;
        }
        return uri == null || !uri.startsWith("/") ? null : EngineProblems.echo(uri);
    }

}
