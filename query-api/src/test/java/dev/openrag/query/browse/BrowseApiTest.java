package dev.openrag.query.browse;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.not;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.query.FixtureTest;
import dev.openrag.query.SearchFixture;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** Collections, documents, chunks and graph neighbourhoods over the fixture in real Neo4j. */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
class BrowseApiTest extends FixtureTest {

    private static final String C = SearchFixture.COLLECTION;

    @Test
    void listsCollectionsAndPagesDocuments() {
        given().get("/api/collections").then().statusCode(200)
                .body("collections.find { it.name == '" + C + "' }.documents", equalTo(4))
                .body("collections.find { it.name == '" + C + "' }.entities", equalTo(2));
        given().queryParam("collection", C).queryParam("size", 3).get("/api/documents").then().statusCode(200)
                .body("total", equalTo(4)).body("documents.size()", equalTo(3)).body("documents[0].title", equalTo("Title 0"));
        given().queryParam("collection", C).queryParam("size", 3).queryParam("page", 2).get("/api/documents").then()
                .statusCode(200).body("documents.documentId", equalTo(List.of("doc-3")));
        given().queryParam("collection", C).queryParam("q", "title 2").get("/api/documents").then()
                .statusCode(200).body("total", equalTo(1)).body("documents[0].documentId", equalTo("doc-2"));
    }

    @Test
    void showsADocumentsChunksWithTheirContexts() {
        given().queryParam("collection", C).get("/api/documents/doc-3").then().statusCode(200)
                .body("document.sourceUri", equalTo("file:///doc-3"))
                .body("chunks[0].chunkId", equalTo(C + "/doc-3#0"))
                .body("chunks[0].context", equalTo("Document: Kafka notes"))
                .body("chunks[0].text", containsString("Consumers in one group"));
    }

    @Test
    void drawsNeighbourhoodsOfEntitiesAndDocuments() {
        given().queryParam("collection", C).queryParam("entity", "kafka").queryParam("hops", 2).get("/api/graph/neighbourhood")
                .then().statusCode(200)
                .body("center", equalTo(C + ":kafka:tech"))
                .body("nodes.name", hasItems("Kafka", "Consumer Group"))
                .body("nodes.label", hasItem("Chunk"))
                .body("edges.type", hasItems("MENTIONS", "RELATED_TO"));
        given().queryParam("collection", C).queryParam("document", "doc-3").get("/api/graph/neighbourhood").then().statusCode(200)
                .body("nodes.label", hasItems("Document", "Section", "Chunk", "Entity"))
                .body("edges.type", hasItems("HAS_SECTION", "HAS_CHUNK", "MENTIONS"))
                .body("nodes.name", not(hasItem("Tomatoes")));
    }

    @Test
    void badRequestsAndUnknownThingsAreClear() {
        given().queryParam("collection", "never-ingested").get("/api/documents").then().statusCode(404)
                .body("message", containsString("unknown collection 'never-ingested'"));
        given().queryParam("collection", C).get("/api/documents/nope").then().statusCode(404)
                .body("message", containsString("no document 'nope'"));
        given().queryParam("collection", C).queryParam("page", 0).get("/api/documents").then().statusCode(400);
        // (page - 1) * size overflowed int and reached Neo4j as a negative SKIP: a 500 with the store's message
        given().queryParam("collection", C).queryParam("page", 20_000_000).queryParam("size", 200).get("/api/documents").then()
                .statusCode(400).body("error", equalTo("bad_request")).body("message", containsString("'page' 20000000 with 'size' 200"))
                .body("message", not(containsString("LIMIT")));
        given().queryParam("collection", C).queryParam("page", Integer.MAX_VALUE).get("/api/documents").then().statusCode(400);
        given().queryParam("collection", C).queryParam("size", 500).get("/api/documents").then().statusCode(400)
                .body("message", containsString("'size' must be between 1 and 200"));
        given().queryParam("collection", "Bad Name").get("/api/documents").then().statusCode(400)
                .body("message", containsString("invalid collection name"));
        given().queryParam("collection", C).get("/api/graph/neighbourhood").then().statusCode(400)
                .body("message", containsString("exactly one of 'entity' or 'document'"));
        given().queryParam("collection", C).queryParam("entity", "kafka").queryParam("hops", 9).get("/api/graph/neighbourhood")
                .then().statusCode(400).body("message", containsString("'hops' must be between 1 and 3"));
        given().queryParam("collection", C).queryParam("entity", "Unheard Of").get("/api/graph/neighbourhood").then()
                .statusCode(404).body("message", containsString("no entity 'Unheard Of'"));
    }
}
