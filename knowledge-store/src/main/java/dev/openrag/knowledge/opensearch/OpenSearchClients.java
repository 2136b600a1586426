package dev.openrag.knowledge.opensearch;

import java.net.URISyntaxException;

import org.apache.hc.core5.http.HttpHost;
import org.opensearch.client.json.jackson.JacksonJsonpMapper;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.transport.httpclient5.ApacheHttpClient5TransportBuilder;

/**
 * Builds an opensearch-java client for a URL such as {@code http://127.0.0.1:9200}, or several
 * separated by commas (the nodes of a cluster: requests go round the nodes, and a node that does not
 * answer is left out until it does). Responses come
 * uncompressed: the Apache client asks for gzip by default, and OpenSearch then compresses every
 * answer (a BM25 search's 30 hits are about 45 KB) for the client to inflate again. Next to the
 * engine, on loopback or a LAN, that is CPU spent for nothing: on the 2-core machine OpenSearch
 * needed 0.4–1.2 ms less CPU per search without it.
 */
public final class OpenSearchClients {

    private OpenSearchClients() {
    }

    public static OpenSearchClient create(String url) {
        try {
            java.util.List<HttpHost> hosts = new java.util.ArrayList<>();
            for (String node : url.split(",")) {
                if (!node.isBlank()) {
                    hosts.add(HttpHost.create(node.strip()));
                }
            }
            if (hosts.isEmpty()) {
                throw new IllegalArgumentException("openrag.opensearch.url is empty: give one URL or several separated by commas");
            }
            return new OpenSearchClient(ApacheHttpClient5TransportBuilder.builder(hosts.toArray(HttpHost[]::new))
                    .setMapper(new JacksonJsonpMapper())
                    .setHttpClientConfigCallback(client -> client.disableContentCompression())
                    .build());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("openrag.opensearch.url is not a valid URL: " + url, e);
        }
    }
}
