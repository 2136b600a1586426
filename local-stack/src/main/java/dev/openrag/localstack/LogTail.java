package dev.openrag.localstack;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The end of a log that every start and command appends to: only what one of them wrote (from a byte offset, or from
 * the last line a start began with), and decoded leniently, as a process writes in whatever charset its locale says
 * and one byte that is not UTF-8 must not hide the lines (it shows as U+FFFD).
 */
final class LogTail {

    /** Enough for the last lines of any log, however long it has grown. */
    static final int WINDOW_BYTES = 64 * 1024;

    private LogTail() {
    }

    /** The last {@code lines} lines written from byte {@code from} on. */
    static List<String> since(Path log, long from, int lines) throws IOException {
        Window window = read(log, from);
        return last(window.text(0, window.start() > from), lines);
    }

    /** The last {@code lines} lines from the last line that starts with {@code startLine} on (all of them when none does). */
    static List<String> sinceLast(Path log, String startLine, int lines) throws IOException {
        Window window = read(log, 0);
        byte[] marker = startLine.getBytes(StandardCharsets.UTF_8);
        byte[] bytes = window.bytes();
        for (int at = bytes.length - marker.length; at >= 0; at--) {
            if ((at == 0 ? window.start() == 0 : bytes[at - 1] == '\n')
                    && Arrays.equals(bytes, at, at + marker.length, marker, 0, marker.length)) {
                return last(window.text(at, false), lines);
            }
        }
        return last(window.text(0, window.start() > 0), lines);
    }

    private record Window(long start, byte[] bytes) {
        /** The lines from byte {@code at}; the first one left out when the window began in the middle of it. */
        List<String> text(int at, boolean midLine) {
            List<String> lines = new String(bytes, at, bytes.length - at, StandardCharsets.UTF_8).lines().toList();
            return midLine && !lines.isEmpty() ? lines.subList(1, lines.size()) : lines;
        }
    }

    /** Up to {@value #WINDOW_BYTES} bytes at the log's end, none before {@code from}. */
    private static Window read(Path log, long from) throws IOException {
        try (SeekableByteChannel channel = Files.newByteChannel(log)) {
            long size = channel.size();
            long start = Math.min(size, Math.max(from, size - WINDOW_BYTES));
            ByteBuffer bytes = ByteBuffer.allocate((int) (size - start));
            channel.position(start);
            while (bytes.hasRemaining() && channel.read(bytes) > 0) {
                // up to the size the log had when asked
            }
            return new Window(start, Arrays.copyOf(bytes.array(), bytes.position()));
        }
    }

    private static List<String> last(List<String> lines, int count) {
        return List.copyOf(lines.subList(Math.max(0, lines.size() - count), lines.size()));
    }
}
