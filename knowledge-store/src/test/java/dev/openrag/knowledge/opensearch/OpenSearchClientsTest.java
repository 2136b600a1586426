package dev.openrag.knowledge.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

/** What the client asks of OpenSearch, seen by a local HTTP server that answers as OpenSearch would (a stand-in). */
class OpenSearchClientsTest {

    @Test
    void searchesAskForUncompressedAnswers() throws Exception {
        List<String> acceptEncodings = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            acceptEncodings.add(String.valueOf(exchange.getRequestHeaders().getFirst("Accept-Encoding")));
            byte[] body = """
                    {"took": 1, "timed_out": false, "_shards": {"total": 1, "successful": 1, "skipped": 0, "failed": 0},
                     "hits": {"hits": []}}""".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            OpenSearchLexicalIndex index = new OpenSearchLexicalIndex(
                    OpenSearchClients.create("http://127.0.0.1:" + server.getAddress().getPort()), false);

            assertThat(index.search("docs", "consumer groups", 5)).isEmpty();
            assertThat(acceptEncodings).hasSize(1);
            assertThat(acceptEncodings.get(0)).as("no compressed answers on a local connection").doesNotContain("gzip");
        } finally {
            server.stop(0);
        }
    }
}
