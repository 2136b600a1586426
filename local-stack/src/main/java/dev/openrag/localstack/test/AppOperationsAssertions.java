package dev.openrag.localstack.test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every OpenRAG app must expose (health with one readiness check per engine it uses,
 * Prometheus metrics, OpenAPI), asserted over real HTTP against a running {@code @QuarkusTest} app.
 */
public final class AppOperationsAssertions {

    private AppOperationsAssertions() {
    }

    public static void assertOperationsEndpoints(String openApiTitle, String... readinessChecks) {
        var ready = given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        for (String check : readinessChecks) {
            ready.body("checks.name", hasItem(containsString(check)));
        }
        given().get("/q/health/live").then().statusCode(200);
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("# TYPE jvm_memory_used_bytes gauge"));
        given().accept("application/json").get("/q/openapi").then().statusCode(200)
                .body("info.title", equalTo(openApiTitle));
        given().get("/q/swagger-ui/").then().statusCode(200);
    }

    /**
     * DNS rebinding, as a browser would perform it: each request sent with {@code Host: attacker.example}
     * is refused with 421 before the app reads it, and the same request with {@code Host: localhost} is
     * not (the positive control). Sent over a raw socket: HTTP clients do not let a caller set Host.
     *
     * @param requests "METHOD /path" each, e.g. "GET /api/collections"
     */
    public static void assertForeignHostRefused(String... requests) {
        for (String request : requests) {
            String[] parts = request.split(" ", 2);
            assertThat(statusWithHost(parts[0], parts[1], "attacker.example:" + io.restassured.RestAssured.port))
                    .as(request + " with a foreign Host").isEqualTo(421);
            assertThat(statusWithHost(parts[0], parts[1], "localhost:" + io.restassured.RestAssured.port))
                    .as(request + " with Host localhost").isNotEqualTo(421);
        }
    }

    /**
     * Issue 60: a page elsewhere posts a form to the app through the visitor's browser (Origin
     * attacker.example, a form's content type): 403, before the request reaches the endpoint. The same
     * post from the local UI's origin is not refused (the positive control).
     */
    public static void assertCrossSiteWriteRefused(String... requests) {
        for (String request : requests) {
            String[] parts = request.split(" ", 2);
            String local = "localhost:" + io.restassured.RestAssured.port;
            assertThat(status(parts[0], parts[1], local, "Origin: https://attacker.example\r\n", "application/x-www-form-urlencoded"))
                    .as(request + " from a foreign origin").isEqualTo(403);
            assertThat(status(parts[0], parts[1], local, "Origin: http://" + local + "\r\n", "application/json"))
                    .as(request + " from the app's own origin").isNotEqualTo(403);
        }
    }

    private static int statusWithHost(String method, String path, String host) {
        return status(method, path, host, "", "application/json");
    }

    private static int status(String method, String path, String host, String extraHeaders, String contentType) {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", io.restassured.RestAssured.port)) {
            socket.setSoTimeout(10_000);
            String body = "POST".equals(method) ? "{}" : "";
            socket.getOutputStream().write((method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\nAccept: application/json\r\n"
                    + extraHeaders + "Content-Type: " + contentType + "\r\nContent-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body)
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            String status = new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(),
                    java.nio.charset.StandardCharsets.US_ASCII)).readLine();
            return Integer.parseInt(status.split(" ")[1]);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
