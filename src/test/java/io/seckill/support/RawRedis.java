package io.seckill.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A connection to Redis on 127.0.0.1 that speaks RESP by hand, as any local process could: what Redis answers, line
 * by line, with no client library deciding what to send first (no HELLO, no AUTH unless asked).
 */
public final class RawRedis implements AutoCloseable {

    private final Socket socket;
    private final BufferedReader in;

    private RawRedis(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
    }

    public static RawRedis connect(int port) {
        try {
            return new RawRedis(new Socket("127.0.0.1", port));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** AUTH password (the {@code default} user); fails unless Redis answers +OK. */
    public RawRedis authenticate(String password) {
        String answer = call("AUTH", password);
        if (!"+OK".equals(answer)) {
            close();
            throw new IllegalStateException("AUTH answered " + answer);
        }
        return this;
    }

    /** Sends the command; the reply's first line ({@code +PONG}, {@code -NOPERM …}, {@code *2}). */
    public String call(String... command) {
        return call(1, command).get(0);
    }

    /** Sends the command; the reply's first lines, as RESP sends them. */
    public List<String> call(int lines, String... command) {
        StringBuilder request = new StringBuilder("*" + command.length + "\r\n");
        for (String part : command) {
            request.append('$').append(part.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(part)
                    .append("\r\n");
        }
        try {
            socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            List<String> reply = new ArrayList<>();
            for (int i = 0; i < lines; i++) {
                reply.add(readLine());
            }
            return reply;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The next line Redis sends; null once the connection is closed. */
    public String readLine() throws IOException {
        return in.readLine();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
