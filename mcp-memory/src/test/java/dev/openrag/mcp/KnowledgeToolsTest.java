package dev.openrag.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;

import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.EventCodec;
import dev.openrag.schemas.StageCompleted;
import dev.openrag.schemas.Topics;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * ingest_document on real Kafka (what it publishes, read back with a plain consumer) and the
 * knowledge tools' errors when query-api and the ingest pipeline are unreachable. The tools
 * against the running services: AgentKnowledgeEndToEndIT.
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KnowledgeToolsTest {

    @TestHTTPResource("/")
    URL root;

    private McpTestClient mcp;
    private HttpServer site;

    @BeforeAll
    void start() throws Exception {
        mcp = McpTestClient.connect(root.toString().replaceAll("/$", ""), McpTestClient.Transport.STREAMABLE_HTTP, null);
        site = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        site.createContext("/page.html", exchange -> {
            byte[] body = "<html><head><title>Fetched</title></head><body><p>Fetched over HTTP.</p></body></html>"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        site.createContext("/missing", exchange -> {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        site.start();
    }

    @AfterAll
    void stop() {
        mcp.close();
        site.stop(0);
    }

    @Test
    void ingestDocumentPublishesAcceptedThenTheDocument() {
        JsonNode text = mcp.call("ingest_document", Map.of("text", "Agents can add documents too.", "title", "agent note",
                "collection", "mcp-ingest"));
        String url = "http://127.0.0.1:" + site.getAddress().getPort() + "/page.html";
        JsonNode fetched = mcp.call("ingest_document", Map.of("url", url, "collection", "mcp-ingest"));
        assertThat(text.get("collection").asText()).isEqualTo("mcp-ingest");

        EventCodec codec = new EventCodec();
        List<DocumentArrived> arrived = new ArrayList<>();
        for (ConsumerRecord<String, String> record : read(Topics.DOCUMENTS_ARRIVED, 2, rec -> rec.value().contains("mcp-ingest"))) {
            arrived.add(codec.fromJson(record.value(), DocumentArrived.class));
        }
        DocumentArrived note = arrived.stream().filter(d -> d.jobId().equals(text.get("jobId").asText())).findFirst().orElseThrow();
        assertThat(note.content()).isEqualTo("Agents can add documents too.");
        assertThat(note.title()).isEqualTo("agent note");
        assertThat(note.source().type()).isEqualTo("mcp");
        DocumentArrived page = arrived.stream().filter(d -> d.jobId().equals(fetched.get("jobId").asText())).findFirst().orElseThrow();
        assertThat(page.mediaType()).isEqualTo("text/html");
        assertThat(new String(Base64.getDecoder().decode(page.content()), StandardCharsets.UTF_8)).contains("Fetched over HTTP.");
        assertThat(page.source().uri()).isEqualTo(url);

        List<ConsumerRecord<String, String>> accepted = read(Topics.INGEST_STATUS, 1,
                rec -> rec.key().equals(text.get("jobId").asText()));
        StageCompleted status = codec.fromJson(accepted.get(0).value(), StageCompleted.class);
        assertThat(status.stage()).isEqualTo(StageCompleted.ACCEPTED);
        assertThat(status.documentId()).isEqualTo(note.documentId());
    }

    @Test
    void badIngestArgumentsAreToolErrors() {
        assertThat(mcp.callError("ingest_document", Map.of("collection", "x"))).contains("give exactly one of 'text' or 'url'");
        assertThat(mcp.callError("ingest_document", Map.of("text", "a", "url", "http://example.org")))
                .contains("give exactly one of 'text' or 'url'");
        assertThat(mcp.callError("ingest_document", Map.of("text", "a", "collection", "Bad Name"))).contains("invalid collection name");
        assertThat(mcp.callError("ingest_document", Map.of("url", "ftp://example.org/file"))).contains("must be an http or https URL");
        assertThat(mcp.callError("ingest_document", Map.of("url", "http://127.0.0.1:" + site.getAddress().getPort() + "/missing")))
                .contains("HTTP 404");
        assertThat(mcp.callError("ingest_document", Map.of("url", "http://127.0.0.1:9/closed"))).contains("could not fetch");
        // server-side request forgery: the server's own ports, cloud metadata and private services are refused
        // (the tests allow 127.0.0.1/32 only, for their local sites)
        assertThat(mcp.callError("ingest_document", Map.of("url", "http://127.0.0.2:8081/q/health"))).contains("loopback")
                .contains("openrag.fetch.allow-private");
        assertThat(mcp.callError("ingest_document", Map.of("url", "http://169.254.169.254/latest/meta-data/"))).contains("link-local");
        assertThat(mcp.callError("ingest_document", Map.of("url", "http://192.168.1.1/admin"))).contains("private");
        assertThat(mcp.callError("ingest_document", Map.of("url", "http://[::1]:8080/api/collections"))).contains("loopback");
    }

    @Test
    void unreachableServicesAreToolErrorsNamingThem() {
        assertThat(mcp.callError("search_knowledge", Map.of("query", "anything")))
                .contains("query-api at http://127.0.0.1:9 is unreachable");
        assertThat(mcp.callError("ask", Map.of("question", "anything"))).contains("query-api at http://127.0.0.1:9 is unreachable");
        assertThat(mcp.callError("get_job_status", Map.of("jobId", "j"))).contains("ingest-pipeline at http://127.0.0.1:9 is unreachable");
        assertThat(mcp.callError("search_knowledge", Map.of("query", " "))).contains("argument 'query' is required");
        // several collections go on to query-api, which checks each against the caller's key
        assertThat(mcp.callError("search_knowledge", Map.of("query", "anything", "collections", List.of("a", "b"))))
                .contains("query-api at http://127.0.0.1:9 is unreachable");
        assertThat(mcp.callError("ask", Map.of("question", "anything", "collections", List.of("*"))))
                .contains("query-api at http://127.0.0.1:9 is unreachable");
        assertThat(mcp.callError("search_knowledge", Map.of("query", "anything", "collection", "a", "collections", List.of("b"))))
                .contains("not both");
    }

    private static List<ConsumerRecord<String, String>> read(String topic, int wanted,
                                                             java.util.function.Predicate<ConsumerRecord<String, String>> filter) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "mcp-test-" + System.nanoTime());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 16 * 1024 * 1024);
        List<ConsumerRecord<String, String>> found = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.currentTimeMillis() + 30_000;
            while (found.size() < wanted && System.currentTimeMillis() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(record -> {
                    if (filter.test(record)) {
                        found.add(record);
                    }
                });
            }
        }
        assertThat(found).as("records on " + topic).hasSizeGreaterThanOrEqualTo(wanted);
        return found;
    }
}
