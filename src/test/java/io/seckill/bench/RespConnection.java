package io.seckill.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Just enough RESP for the admission script's steady load ({@link ScriptLoad}): one command at a time on one
 * connection, its reply read whole, on the calling thread. Not Lettuce: that load is the floor under the service's
 * POST latency, and Lettuce would put its event-loop threads and their hand-offs between each request and Redis,
 * on the same two CPUs. The drain's XLEN polling ({@link BacklogDrain}) uses it too, as it is here anyway.
 */
final class RespConnection implements Closeable {
    private final Socket socket;
    private final OutputStream out;
    private final BufferedInputStream in;

    /** Authenticated with REDISCLI_AUTH when it is set, as redis-cli is (run.sh exports the embedded password). */
    RespConnection(int port) throws IOException {
        this(port, System.getenv("REDISCLI_AUTH"));
    }

    /** Authenticated with PASSWORD unless it is null or empty. */
    RespConnection(int port, String password) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setTcpNoDelay(true);
        out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
        in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
        if (password != null && !password.isEmpty() && !"OK".equals(call("AUTH", password))) {
            socket.close();
            throw new IOException("Redis refused the password");
        }
    }

    /** A command whose reply is an integer. */
    long integer(String... command) throws IOException {
        if (call(command) instanceof Long value) {
            return value;
        }
        throw new IOException("no integer reply to " + command[0]);
    }

    /** Sends a command and reads its reply: a Long, a String (an error starts with "-"), a List, or null. */
    Object call(String... command) throws IOException {
        write(command);
        out.flush();
        return reply();
    }

    /**
     * Sends COMMANDS without waiting for each reply, as redis-cli --pipe does, then reads every reply; returns how many
     * were errors. For the drain's backlog: hundreds of thousands of scripts, one round trip each would take minutes.
     */
    long pipelined(List<String[]> commands) throws IOException {
        for (String[] command : commands) {
            write(command);
        }
        out.flush();
        long errors = 0;
        for (int i = 0; i < commands.size(); i++) {
            if (reply() instanceof String text && text.startsWith("-")) {
                errors++;
            }
        }
        return errors;
    }

    private void write(String... command) throws IOException {
        StringBuilder request = new StringBuilder("*").append(command.length).append("\r\n");
        for (String part : command) {
            request.append('$').append(part.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(part)
                    .append("\r\n");
        }
        out.write(request.toString().getBytes(StandardCharsets.UTF_8));
    }

    private Object reply() throws IOException {
        int type = in.read();
        String line = WireLines.read(in, "Redis closed the connection");
        return switch (type) {
            case '+' -> line;
            case '-' -> "-" + line;
            case ':' -> Long.parseLong(line);
            case '$' -> {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    yield null;
                }
                String value = new String(in.readNBytes(length), StandardCharsets.UTF_8);
                WireLines.read(in, "Redis closed the connection");
                yield value;
            }
            case '*' -> {
                int count = Integer.parseInt(line);
                List<Object> values = new ArrayList<>(Math.max(count, 0));
                for (int i = 0; i < count; i++) {
                    values.add(reply());
                }
                yield count < 0 ? null : values;
            }
            default -> throw new IOException("not a RESP reply: " + (char) type + line);
        };
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
