package org.bftws.client.faults;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A client history as JSON lines, one event a line, in the order they happened: an {@code invoke} line when a
 * process starts an operation, then {@code ok} (completed, with its result) or {@code info} (timed out or failed
 * in a way that leaves open whether it took effect). Times are microseconds since the epoch, from one monotonic
 * clock anchored once, so they order events across this JVM's threads exactly.
 *
 * <pre>
 *   {"t":1700000000000000,"type":"invoke","process":3,"f":"cas","key":"k1","arg":2,"arg2":4}
 *   {"t":1700000000012345,"type":"ok","process":3,"f":"cas","key":"k1","arg":2,"arg2":4,"result":4,"ok":true}
 * </pre>
 */
final class History implements AutoCloseable {
    private final BufferedWriter out;
    private final long epochMicros = System.currentTimeMillis() * 1000;
    private final long nanos = System.nanoTime();

    History(Path file) throws IOException {
        out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    }

    /** One operation: what a process asked ({@code f} on {@code key} with up to two arguments). */
    record Op(int process, String f, String key, long arg, long arg2) {
        String fields() {
            return "\"process\":" + process + ",\"f\":\"" + f + "\",\"key\":\"" + key + "\",\"arg\":" + arg
                    + ",\"arg2\":" + arg2;
        }
    }

    long now() {
        return epochMicros + (System.nanoTime() - nanos) / 1000;
    }

    void invoke(Op op) throws IOException {
        write("{\"t\":" + now() + ",\"type\":\"invoke\"," + op.fields() + "}");
    }

    void ok(Op op, long result, boolean ok) throws IOException {
        write("{\"t\":" + now() + ",\"type\":\"ok\"," + op.fields() + ",\"result\":" + result + ",\"ok\":" + ok + "}");
    }

    void info(Op op, String error) throws IOException {
        write("{\"t\":" + now() + ",\"type\":\"info\"," + op.fields() + ",\"error\":\"" + jsonText(error) + "\"}");
    }

    private synchronized void write(String line) throws IOException {
        out.write(line);
        out.newLine();
        out.flush();
    }

    private static String jsonText(String s) {
        String t = s == null ? "" : s.length() > 200 ? s.substring(0, 200) : s;
        StringBuilder b = new StringBuilder();
        for (char c : t.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c >= ' ') {
                b.append(c);
            } else {
                b.append(' ');
            }
        }
        return b.toString();
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
