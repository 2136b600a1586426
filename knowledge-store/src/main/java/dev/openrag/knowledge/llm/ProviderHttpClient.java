package dev.openrag.knowledge.llm;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;

/**
 * The HTTP client every LangChain4j provider model here is built with: the JDK's client, like
 * LangChain4j's own, but an error status becomes a {@link ProviderHttpException} that keeps the
 * provider's {@code Retry-After} (LangChain4j's exception drops the headers). Streams are read on
 * a virtual thread, as the provider models expect {@code execute} with a listener to return at once.
 */
final class ProviderHttpClient implements HttpClient {

    private static final ExecutorService STREAMS = Executors.newVirtualThreadPerTaskExecutor();

    private final java.net.http.HttpClient http;
    private final Duration readTimeout;

    private ProviderHttpClient(Duration connectTimeout, Duration readTimeout) {
        this.http = java.net.http.HttpClient.newBuilder().connectTimeout(connectTimeout)
                .version(java.net.http.HttpClient.Version.HTTP_1_1).build();
        this.readTimeout = readTimeout;
    }

    @Override
    public SuccessfulHttpResponse execute(HttpRequest request) {
        HttpResponse<String> response = send(request, BodyHandlers.ofString(StandardCharsets.UTF_8));
        if (!successful(response.statusCode())) {
            throw ProviderHttpException.of(response.statusCode(), response.body(), response.headers());
        }
        return SuccessfulHttpResponse.builder().statusCode(response.statusCode()).headers(response.headers().map())
                .body(response.body()).build();
    }

    @Override
    public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
        STREAMS.execute(() -> {
            try {
                HttpResponse<InputStream> response = send(request, BodyHandlers.ofInputStream());
                try (InputStream body = response.body()) {
                    if (!successful(response.statusCode())) {
                        String text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
                        listener.onError(ProviderHttpException.of(response.statusCode(), text, response.headers()));
                        return;
                    }
                    listener.onOpen(SuccessfulHttpResponse.builder().statusCode(response.statusCode())
                            .headers(response.headers().map()).build());
                    parser.parse(body, listener);
                }
                listener.onClose();
            } catch (IOException | RuntimeException e) {
                listener.onError(e);
            }
        });
    }

    private <T> HttpResponse<T> send(HttpRequest request, BodyHandler<T> handler) {
        java.net.http.HttpRequest.Builder builder = java.net.http.HttpRequest.newBuilder(URI.create(request.url()))
                .timeout(readTimeout)
                .method(request.method().name(), request.body() == null ? BodyPublishers.noBody()
                        : BodyPublishers.ofString(request.body(), StandardCharsets.UTF_8));
        request.headers().forEach((name, values) -> values.forEach(value -> builder.header(name, value)));
        try {
            return http.send(builder.build(), handler);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calling " + request.url(), e);
        }
    }

    private static boolean successful(int status) {
        return status >= 200 && status < 300;
    }

    /** What the provider builders are given; they set the timeouts. */
    static final class Builder implements HttpClientBuilder {

        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration readTimeout = Duration.ofSeconds(60);

        @Override
        public Duration connectTimeout() {
            return connectTimeout;
        }

        @Override
        public HttpClientBuilder connectTimeout(Duration timeout) {
            if (timeout != null) {
                this.connectTimeout = timeout;
            }
            return this;
        }

        @Override
        public Duration readTimeout() {
            return readTimeout;
        }

        @Override
        public HttpClientBuilder readTimeout(Duration timeout) {
            if (timeout != null) {
                this.readTimeout = timeout;
            }
            return this;
        }

        @Override
        public HttpClient build() {
            return new ProviderHttpClient(connectTimeout, readTimeout);
        }
    }
}
