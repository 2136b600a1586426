package dev.openrag.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import com.sun.net.httpserver.HttpServer;

/**
 * What the CLI's tests talk to in place of an app: a JDK HTTP server that records each request as
 * {@code "METHOD URI auth=HEADER BODY"} and answers each path with a status and a JSON body, as
 * the apps do (the apps' own tests cover the real endpoints).
 */
final class RecordingServer implements AutoCloseable {

    /** A status and a JSON body. */
    record Answer(int status, String json) {
    }

    final List<String> requests = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    RecordingServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.start();
    }

    /** Answers every request under {@code path} with what {@code answer} gives at that moment. */
    RecordingServer answer(String path, Supplier<Answer> answer) {
        server.createContext(path, exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " auth="
                    + exchange.getRequestHeaders().getFirst("Authorization") + " " + body);
            Answer given = answer.get();
            JsonAnswer.send(exchange, given.status(), given.json());
        });
        return this;
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** {@code openrag ARGS}'s exit code, standard output and standard error, in that order. */
    static String[] runWithErrors(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = OpenRagCommand.execute(args);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        return new String[] {String.valueOf(code), printed.toString(StandardCharsets.UTF_8), errors.toString(StandardCharsets.UTF_8)};
    }

    /** What {@code openrag ARGS} prints on standard output. */
    static String run(String... args) {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            OpenRagCommand.execute(args);
        } finally {
            System.setOut(original);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
