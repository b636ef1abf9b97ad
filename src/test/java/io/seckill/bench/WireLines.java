package io.seckill.bench;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/** HTTP's and RESP's framing, for the harness's own clients: a line ends with CRLF (or a bare LF). */
final class WireLines {

    private WireLines() {
    }

    /** The next line of IN without its terminator; WHEN_CLOSED is the error's message if the stream ends first. */
    static String read(InputStream in, String whenClosed) throws IOException {
        StringBuilder line = new StringBuilder(64);
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new EOFException(whenClosed);
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }
}
