package io.seckill.bench;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A blocking HTTP/1.1 client on one keep-alive connection, just enough for the order API, for the load generators
 * that share the two CPUs with the service they measure. The JDK's HttpClient spent about five times its CPU per
 * request here, CPU the generator would take from the service (the payments, which are not timed, use the JDK's).
 * Reconnects when the server closes the connection (Tomcat does after 100 requests, for wrk too), and sends a
 * request again only when a kept-alive connection turns out closed before any answer.
 */
final class HttpConnection implements Closeable {

    private static final Pattern ORDER_ID = Pattern.compile("\"orderId\"\\s*:\\s*\"(\\d+)\"");
    private static final Pattern CODE = Pattern.compile("\"code\"\\s*:\\s*\"(\\w+)\"");

    record Response(int status, String body) {

        /** "202", or the status and the problem's code: "409_SOLD_OUT". */
        String outcome() {
            if (status == 202) {
                return "202";
            }
            Matcher matcher = CODE.matcher(body);
            return status + (matcher.find() ? "_" + matcher.group(1) : "");
        }

        /** The order id of a 202. */
        String orderId() {
            Matcher matcher = ORDER_ID.matcher(body);
            if (!matcher.find()) {
                throw new IllegalStateException("a 202 without an orderId: " + body);
            }
            return matcher.group(1);
        }
    }

    private final String host;
    private final int port;
    private Socket socket;
    private BufferedInputStream in;
    private OutputStream out;

    HttpConnection(URI base) {
        this.host = base.getHost();
        this.port = base.getPort();
    }

    Response postOrder(long voucherId, long userId) throws IOException {
        return exchange("POST /api/vouchers/" + voucherId + "/orders HTTP/1.1\r\nHost: " + host + ":" + port
                + "\r\nX-User-Id: " + userId + "\r\nContent-Length: 0\r\n\r\n");
    }

    /** As its buyer: the service answers an order to its own buyer only. */
    Response getOrder(String orderId, long userId) throws IOException {
        return exchange("GET /api/orders/" + orderId + " HTTP/1.1\r\nHost: " + host + ":" + port
                + "\r\nX-User-Id: " + userId + "\r\n\r\n");
    }

    private Response exchange(String request) throws IOException {
        boolean keptAlive = socket != null;
        try {
            return send(request);
        } catch (StaleConnectionException e) {
            close();
            if (!keptAlive) {
                throw e;
            }
            return exchange(request);
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    private Response send(String request) throws IOException {
        if (socket == null) {
            socket = new Socket(host, port);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(60_000);
            in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
            out = socket.getOutputStream();
        }
        int first;
        try {
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            first = in.read();
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            throw new StaleConnectionException(e);
        }
        if (first < 0) {
            throw new StaleConnectionException(null);
        }
        return read((char) first + line());
    }

    /** Nothing came back: the connection was closed (or reset) before the request reached the service. */
    private static final class StaleConnectionException extends IOException {
        private static final long serialVersionUID = 1L;

        StaleConnectionException(IOException cause) {
            super("the connection was closed before any answer", cause);
        }
    }

    private Response read(String statusLine) throws IOException {
        int status = Integer.parseInt(statusLine.substring(9, 12));
        int length = -1;
        boolean chunked = false;
        boolean closing = false;
        for (String header = line(); !header.isEmpty(); header = line()) {
            String lower = header.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Integer.parseInt(lower.substring(15).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            } else if (lower.startsWith("connection:") && lower.contains("close")) {
                closing = true;
            }
        }
        StringBuilder body = new StringBuilder();
        if (chunked) {
            for (int size = chunkSize(); size > 0; size = chunkSize()) {
                body.append(new String(in.readNBytes(size), StandardCharsets.UTF_8));
                line();
            }
            while (!line().isEmpty()) {
                // trailers: none expected
            }
        } else if (length > 0) {
            body.append(new String(in.readNBytes(length), StandardCharsets.UTF_8));
        }
        if (closing) {
            close();
        }
        return new Response(status, body.toString());
    }

    private int chunkSize() throws IOException {
        String line = line();
        int extension = line.indexOf(';');
        return Integer.parseInt((extension < 0 ? line : line.substring(0, extension)).trim(), 16);
    }

    private String line() throws IOException {
        return WireLines.read(in, "connection closed mid-response");
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing a connection we are done with
            }
            socket = null;
        }
    }
}
