package dev.openrag.knowledge.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.e5smallv2q.E5SmallV2QuantizedEmbeddingModel;

public class OnnxEmbedderTest {

    private static final List<String> PASSAGES = List.of(
            "Kafka consumer groups share the partitions of a topic between their members.",
            "Tomatoes need six hours of sun and deep, regular watering.",
            "fn parse_http_header(raw: &str) -> Header { raw.split(':') }");

    private final OnnxEmbedder embedder = new OnnxEmbedder(2, false);

    @Test
    void ourSessionOptionsGiveTheSameVectorsAsLangChain4jsStockModel() {
        var stock = new BgeSmallEnV15QuantizedEmbeddingModel();

        List<float[]> ours = embedder.embed(PASSAGES);

        assertThat(ours).hasSize(3);
        for (int i = 0; i < PASSAGES.size(); i++) {
            float[] expected = stock.embed(PASSAGES.get(i)).content().vector();
            assertThat(ours.get(i)).hasSize(384);
            assertThat(cosine(ours.get(i), expected)).as("passage %d", i).isCloseTo(1.0, within(1e-4));
        }
    }

    @Test
    void batchesOfMixedLengthsAndTextsOverTheModelsLimitMatchTheStockModel() {
        var stock = new BgeSmallEnV15QuantizedEmbeddingModel();
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 40; i++) { // several batches: lengths from a few tokens to a few hundred
            texts.add((PASSAGES.get(i % 3) + " ").repeat(1 + i % 13).strip() + " #" + i);
        }
        texts.add("word ".repeat(700) + "and the end"); // over 512 tokens: embedded in parts by the stock encoder
        texts.add("x");

        List<float[]> ours = embedder.embed(texts);

        assertThat(ours).hasSize(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            float[] expected = stock.embed(texts.get(i)).content().vector();
            assertThat(cosine(ours.get(i), expected)).as("text %d", i).isCloseTo(1.0, within(1e-4));
        }
    }

    @Test
    void aBatchKeepsItsOrderAndQueriesFindTheirPassage() {
        List<float[]> batch = embedder.embed(PASSAGES);
        for (int i = 0; i < PASSAGES.size(); i++) {
            assertThat(cosine(batch.get(i), embedder.embed(List.of(PASSAGES.get(i))).get(0))).isCloseTo(1.0, within(1e-5));
        }

        float[] query = embedder.embedQuery("how do consumers in a group split a topic");
        assertThat(cosine(query, batch.get(0))).isGreaterThan(cosine(query, batch.get(1))).isGreaterThan(0.5);
        assertThat(embedder.embed(List.of())).isEmpty();
        assertThat(embedder.embed(List.of("   ")).get(0)).as("blank text still gets a vector").hasSize(384);
    }

    @Test
    void queriesAreEmbeddedAsTheyAreUnlessTheInstructionIsAskedFor() {
        String query = "how do consumers in a group split a topic";
        float[] plain = embedder.embed(List.of(query)).get(0);

        assertThat(cosine(embedder.embedQuery(query), plain)).isCloseTo(1.0, within(1e-5));

        OnnxEmbedder instructed = new OnnxEmbedder(1, true);
        float[] withInstruction = instructed.embedQuery(query);
        assertThat(cosine(withInstruction, plain)).as("the instruction changes the vector").isLessThan(0.99);
        assertThat(cosine(withInstruction, embedder.embed(List.of(OnnxEmbedder.QUERY_INSTRUCTION + query)).get(0)))
                .isCloseTo(1.0, within(1e-5));
    }

    public static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }


    @Test
    void theSecondModelIsE5WithItsPassageAndQueryPrefixes() {
        var stock = new E5SmallV2QuantizedEmbeddingModel();
        OnnxEmbedder e5 = new OnnxEmbedder(OnnxEmbedder.Model.of("e5-small-v2-q"), 2);

        List<float[]> passages = e5.embed(PASSAGES);
        for (int i = 0; i < PASSAGES.size(); i++) {
            float[] expected = stock.embed("passage: " + PASSAGES.get(i)).content().vector();
            assertThat(cosine(passages.get(i), expected)).as("passage %d", i).isCloseTo(1.0, within(1e-4));
        }
        String question = "how do consumers in a group split a topic";
        float[] query = e5.embedQuery(question);
        assertThat(cosine(query, stock.embed("query: " + question).content().vector())).isCloseTo(1.0, within(1e-4));
        assertThat(cosine(query, passages.get(0))).isGreaterThan(cosine(query, passages.get(1)));
        assertThat(e5.modelName()).isEqualTo("e5-small-v2-q");
        assertThat(cosine(query, embedder.embedQuery(question))).as("another model: another space").isLessThan(0.9);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OnnxEmbedder.Model.of("e5-large"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bge-small-en-v1.5-q").hasMessageContaining("e5-small-v2-q");
    }
}
