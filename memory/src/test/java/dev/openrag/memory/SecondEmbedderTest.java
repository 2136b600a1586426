package dev.openrag.memory;

import static dev.openrag.knowledge.embedding.OnnxEmbedderTest.cosine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.embedding.OnnxEmbedder;
import dev.openrag.knowledge.embedding.SecondEmbedder;
import dev.openrag.knowledge.port.Embedder;

class SecondEmbedderTest {

    private static final OnnxEmbedder E5 = new OnnxEmbedder(OnnxEmbedder.Model.E5_SMALL_V2, 1);

    /** The first model as a recorder: a vector per text, and which texts it was given. */
    private static final class Recording implements Embedder {
        final List<String> texts = new ArrayList<>();

        @Override
        public String modelName() {
            return "recording";
        }

        @Override
        public int dimension() {
            return 2;
        }

        @Override
        public synchronized List<float[]> embed(List<String> batch) {
            texts.addAll(batch);
            return batch.stream().map(text -> new float[] {text.length(), 1}).toList();
        }
    }

    @Test
    void theSecondModelEmbedsAMemorysTextAloneAndTheFirstItsContextToo() {
        Recording first = new Recording();
        MemoryEmbeddings embeddings = new MemoryEmbeddings(first, SecondEmbedder.of("e5-small-v2-q"));
        List<MemoryBatch.Item> items = List.of(
                new MemoryBatch.Item("t2", "Melanie: we went camping with the kids", null, "Melanie", null, null,
                        "Caroline: how was your weekend?", null),
                new MemoryBatch.Item("t3", "Caroline: that sounds lovely", null, "Caroline", null, null, null, null));

        MemoryEmbeddings.Batch batch = embeddings.batch(items);

        assertThat(first.texts).containsExactly("Caroline: how was your weekend?\nMelanie: we went camping with the kids",
                "Caroline: that sounds lovely");
        assertThat(batch.first()).hasSize(2);
        assertThat(batch.second()).hasSize(2);
        for (int i = 0; i < items.size(); i++) {
            float[] alone = E5.embed(List.of(items.get(i).text())).get(0);
            assertThat(cosine(batch.second().get(i), alone)).as("item %d", i).isCloseTo(1.0, within(1e-5));
        }
        MemoryEmbeddings.Vectors question = embeddings.query("where did Melanie go camping", true);
        assertThat(cosine(question.second(), E5.embedQuery("where did Melanie go camping"))).isCloseTo(1.0, within(1e-5));
        assertThat(embeddings.query("where did Melanie go camping", false).second())
                .as("only a hybrid search fuses the second list").isNull();
        assertThat(embeddings.memory("a note").second()).hasSize(384);
    }

    @Test
    void offMeansNoSecondVectorsAndAnUnknownModelIsRefusedByName() {
        Recording first = new Recording();
        SecondEmbedder none = SecondEmbedder.of("none");
        MemoryEmbeddings embeddings = new MemoryEmbeddings(first, none);

        assertThat(none.enabled()).isFalse();
        assertThat(embeddings.memory("a note").second()).isNull();
        assertThat(embeddings.memory("a note").first()).isNotNull();
        assertThat(embeddings.batch(List.of(new MemoryBatch.Item(null, "x", null, null, null, null, null, null))).second()).isNull();
        assertThat(embeddings.query("x", true).second()).isNull();
        assertThatThrownBy(() -> SecondEmbedder.of("e5-large")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown embedding model 'e5-large'").hasMessageContaining("e5-small-v2-q");
    }
}
