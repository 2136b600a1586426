package dev.openrag.ingest.stage.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.openrag.schemas.ApiGraph;

class OpenApiSpecsTest {

    static String resource(String name) throws IOException {
        try (InputStream in = OpenApiSpecsTest.class.getResourceAsStream("/openapi/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void thePetstoreBecomesExactlyItsApiGraph() throws IOException {
        String text = resource("petstore.yaml");
        assertThat(OpenApiSpecs.looksLikeSpec(text)).isTrue();

        OpenApiSpecs.Spec spec = OpenApiSpecs.read(text, "petstore.yaml");

        assertThat(spec.title()).isEqualTo("Swagger Petstore");
        assertThat(spec.graph().nodes()).extracting(n -> n.label() + " " + n.id() + " " + n.name()).containsExactlyInAnyOrder(
                "Api api Swagger Petstore",
                "Operation op:GET /pets listPets",
                "Operation op:POST /pets createPets",
                "Operation op:GET /pets/{petId} showPetById",
                "Entity tag:pets pets",
                "Entity schema:pet Pet",
                "Entity schema:pets Pets",
                "Entity schema:error Error");
        assertThat(spec.graph().edges()).extracting(e -> e.fromId() + " -" + e.type() + "-> " + e.toId()).containsExactlyInAnyOrder(
                "api -HAS_OPERATION-> op:GET /pets",
                "api -HAS_OPERATION-> op:POST /pets",
                "api -HAS_OPERATION-> op:GET /pets/{petId}",
                "tag:pets -PART_OF-> api",
                "op:GET /pets -PART_OF-> tag:pets",
                "op:POST /pets -PART_OF-> tag:pets",
                "op:GET /pets/{petId} -PART_OF-> tag:pets",
                "schema:pet -PART_OF-> api",
                "schema:pets -PART_OF-> api",
                "schema:error -PART_OF-> api",
                "op:GET /pets -RELATES_TO-> schema:pets",
                "op:GET /pets -RELATES_TO-> schema:error",
                "op:POST /pets -RELATES_TO-> schema:pet",
                "op:POST /pets -RELATES_TO-> schema:error",
                "op:GET /pets/{petId} -RELATES_TO-> schema:pet",
                "op:GET /pets/{petId} -RELATES_TO-> schema:error",
                "schema:pets -RELATES_TO-> schema:pet");
        ApiGraph.Node listPets = spec.graph().nodes().stream().filter(n -> n.id().equals("op:GET /pets")).findFirst().orElseThrow();
        assertThat(listPets.properties()).containsEntry("method", "GET").containsEntry("path", "/pets")
                .containsEntry("operationId", "listPets").containsEntry("summary", "List all pets");
        assertThat(listPets.properties().get("parameters"))
                .isEqualTo("limit (query, integer int32, optional): How many items to return at one time (max 100)");

        // an overview chunk, one per operation, one per schema, each linked to its node
        assertThat(spec.chunks()).hasSize(1 + 3 + 3);
        assertThat(spec.graph().chunks()).extracting(ApiGraph.ChunkLink::nodeId).containsExactly(
                "api", "op:GET /pets", "op:POST /pets", "op:GET /pets/{petId}", "schema:pet", "schema:pets", "schema:error");
        assertThat(spec.chunks().get(0).text()).startsWith("API Swagger Petstore 1.0.0").contains("- POST /pets — Create a pet (createPets)");
        assertThat(spec.chunks().get(1).text()).startsWith("GET /pets — List all pets").contains("Operation id: listPets")
                .contains("- 200 A paged array of pets (Pets)");
        assertThat(spec.problems()).isEmpty();
    }

    @Test
    void examplesAndDescriptionsBecomeExampleAndDocChunkNodes() throws IOException {
        OpenApiSpecs.Spec spec = OpenApiSpecs.read(resource("garden.json"), "garden.json");

        List<String> labels = spec.graph().nodes().stream().map(n -> n.label() + " " + n.id()).toList();
        assertThat(labels).contains("Example example:POST /beds/{bedId}/watering request",
                "Example example:POST /beds/{bedId}/watering response 202",
                "DocChunk doc:api", "DocChunk doc:op:POST /beds/{bedId}/watering", "DocChunk doc:tag:beds", "DocChunk doc:schema:bed");
        assertThat(spec.graph().edges()).extracting(e -> e.fromId() + " -" + e.type() + "-> " + e.toId()).contains(
                "op:POST /beds/{bedId}/watering -HAS_EXAMPLE-> example:POST /beds/{bedId}/watering request",
                "op:POST /beds/{bedId}/watering -HAS_DOCUMENTATION-> doc:op:POST /beds/{bedId}/watering",
                "api -HAS_DOCUMENTATION-> doc:api",
                "schema:moisture -RELATES_TO-> schema:bed");
        String watering = spec.chunks().get(spec.graph().chunks().stream()
                .filter(link -> link.nodeId().equals("op:POST /beds/{bedId}/watering")).findFirst().orElseThrow().chunkIndex()).text();
        assertThat(watering).contains("POST /beds/{bedId}/watering — Start watering a bed")
                .contains("bedId (path, integer, required): Number of the bed")
                .contains("Example request: {\"durationMinutes\":10}");
    }

    @Test
    void otherJsonAndYamlAreNotSpecs() {
        assertThat(OpenApiSpecs.looksLikeSpec("{\"name\": \"openrag\", \"version\": \"3.0\"}")).isFalse();
        assertThat(OpenApiSpecs.looksLikeSpec("swagger: \"2.0\"\ninfo:\n  title: old\n")).isFalse();
        assertThat(OpenApiSpecs.looksLikeSpec("# Notes\nWe moved to openapi: 3.1 last year.")).isFalse();
        assertThat(OpenApiSpecs.looksLikeSpec("{\"openapi\":\"3.1.0\",\"info\":{}}")).isTrue();
    }

    @Test
    void anUnreadableSpecNamesTheParseProblem() {
        assertThatThrownBy(() -> OpenApiSpecs.read("openapi: 3.0.0\ninfo:\n  title: Broken\npaths: [not, a, map\n", "broken.yaml"))
                .isInstanceOf(OpenApiSpecs.InvalidSpec.class)
                .hasMessageStartingWith("invalid OpenAPI spec: ");
        assertThatThrownBy(() -> OpenApiSpecs.read("openapi: 3.0.0\ninfo:\n  title: Empty\n  version: 1\n", "empty.yaml"))
                .isInstanceOf(OpenApiSpecs.InvalidSpec.class)
                .hasMessageContaining("paths");
    }
}
