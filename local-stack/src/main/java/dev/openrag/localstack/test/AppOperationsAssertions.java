package dev.openrag.localstack.test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

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
}
