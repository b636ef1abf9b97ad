package io.seckill.api;

/**
 * What an HTTP engine says in the problem it answers for a request no route saw (a malformed request line, a path
 * or method the API does not have, a body over the limit, a media type it does not speak): Tomcat's
 * ({@link ProblemReportValve}) and Netty's ({@link NettyProblemAnswers}) say the same. Composed from the request,
 * never from an exception, so no answer carries a stack trace or a class name.
 */
final class EngineProblems {

    private static final int MAX_ECHOED_LENGTH = 100;

    private EngineProblems() {
    }

    /**
     * @param path the request's path, or null when it cannot be repeated back
     * @param allow the methods the path allows (405), or null
     * @param accepted the media type the path takes (415), or null for application/json
     */
    static String detail(int status, String method, String path, String contentType, String allow, String accepted) {
        String where = path == null ? "this path" : path;
        return switch (status) {
            case 400 -> "The request cannot be read: its request line, URL or headers are malformed";
            case 404 -> "There is nothing at " + where;
            case 405 -> echo(method) + " is not allowed on " + where + (allow == null ? "" : "; allowed: " + allow);
            case 406 -> where + " answers application/json, which the Accept header does not allow";
            case 408 -> "The request did not arrive within the deadline (seckill.api.body-deadline)";
            case 413 -> "The body is over the size limit (seckill.api.max-body-size)";
            case 415 -> (contentType == null ? "The request has no Content-Type"
                    : "Content-Type '" + echo(contentType) + "' is not supported")
                    + "; send " + (accepted == null ? "application/json" : accepted);
            case 500 -> "The request could not be processed";
            case 501 -> "The request's transfer coding is not supported";
            case 503 -> "The service is not available; try again later";
            case 505 -> "The request's HTTP version is not supported";
            default -> Problem.forStatus(status, null, null).title();
        };
    }

    /** A value from the request, cut short so an answer never repeats a huge header back. */
    static String echo(String value) {
        if (value == null) {
            return "";
        }
        return value.length() <= MAX_ECHOED_LENGTH ? value : value.substring(0, MAX_ECHOED_LENGTH) + "…";
    }
}
