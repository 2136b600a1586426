package dev.openrag.query.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.port.Embedder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** The query-vector cache: keyed by model and exact model input, bounded, counted in the cache metrics. */
class QueryVectorsTest {

    /** An embedder that answers each query with a vector naming its model and counts the model's work. */
    private record Model(String modelName, String prefix, float mark, AtomicInteger calls) implements Embedder {

        Model(String name, String prefix, float mark) {
            this(name, prefix, mark, new AtomicInteger());
        }

        @Override
        public int dimension() {
            return 2;
        }

        @Override
        public List<float[]> embed(List<String> texts) {
            calls.addAndGet(texts.size());
            return texts.stream().map(text -> new float[] {mark, text.length()}).toList();
        }

        @Override
        public float[] embedQuery(String query) {
            return embed(List.of(queryInput(query))).get(0);
        }

        @Override
        public String queryInput(String query) {
            return prefix + query;
        }
    }

    @Test
    void aRepeatedQueryIsAHitWithTheSameVectorAndCountedAsOne() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        QueryVectors vectors = new QueryVectors(100, registry);
        Model model = new Model("bge", "", 1f);

        QueryVectors.Lookup first = vectors.embed(model, "tomatoes sun");
        QueryVectors.Lookup second = vectors.embed(model, "tomatoes sun");
        second.vector()[0] = 99f; // a caller changing its copy changes nobody else's
        QueryVectors.Lookup third = vectors.embed(model, "tomatoes sun");

        assertThat(first.cached()).isFalse();
        assertThat(second.cached()).isTrue();
        assertThat(third.vector()).containsExactly(first.vector());
        assertThat(model.calls()).hasValue(1);
        assertThat(registry.get("cache.gets").tag("cache", QueryVectors.CACHE).tag("result", "hit").functionCounter().count()).isEqualTo(2);
        assertThat(registry.get("cache.gets").tag("cache", QueryVectors.CACHE).tag("result", "miss").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("cache.size").tag("cache", QueryVectors.CACHE).gauge().value()).isEqualTo(1);
    }

    @Test
    void anotherModelOrAnotherInstructionNeverGetsTheVectorOfTheFirst() {
        QueryVectors vectors = new QueryVectors(100);
        Model bge = new Model("bge", "", 1f);
        Model other = new Model("minilm", "", 2f);
        Model instructed = new Model("bge", "Represent this sentence for searching relevant passages: ", 3f);

        float[] first = vectors.embed(bge, "tomatoes sun").vector();
        QueryVectors.Lookup ofOther = vectors.embed(other, "tomatoes sun");
        QueryVectors.Lookup ofInstructed = vectors.embed(instructed, "tomatoes sun");

        assertThat(first[0]).isEqualTo(1f);
        assertThat(ofOther.cached()).isFalse();
        assertThat(ofOther.vector()[0]).isEqualTo(2f);
        assertThat(ofInstructed.cached()).as("the instruction is part of what the model is given").isFalse();
        assertThat(ofInstructed.vector()[0]).isEqualTo(3f);
        assertThat(vectors.embed(other, "tomatoes sun").vector()[0]).isEqualTo(2f);
    }

    @Test
    void sizeZeroKeepsNothing() {
        QueryVectors vectors = new QueryVectors(0);
        Model model = new Model("bge", "", 1f);
        vectors.embed(model, "a");
        assertThat(vectors.embed(model, "a").cached()).isFalse();
        assertThat(model.calls()).hasValue(2);
    }
}
