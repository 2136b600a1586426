package dev.openrag.knowledge.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import dev.openrag.localstack.JavaRuntime;
import org.junit.jupiter.api.Test;

class UnitVectorsTest {

    @Test
    void vectorsWithMoreAreTheOldOnesAndTheNewOnesNormalisedWhicheverWasGrownFirst() {
        UnitVectors base = UnitVectors.of(new float[][] {{3, 4}, {0, 2}}, 2);
        UnitVectors once = base.with(new float[][] {{5, 0}});
        UnitVectors again = base.with(new float[][] {{0, -1}}); // a second successor of the same vectors: its own copy
        UnitVectors twice = once.with(new float[][] {{1, 1}, {-2, 0}});

        assertThat(base.size()).isEqualTo(2);
        assertThat(once.size()).isEqualTo(3);
        assertThat(once.vector(2)).containsExactly(1, 0);
        assertThat(again.vector(2)).containsExactly(0, -1);
        assertThat(twice.size()).isEqualTo(5);
        assertThat(twice.vector(0)).containsExactly(0.6f, 0.8f);
        assertThat(twice.vector(2)).containsExactly(1, 0);
        assertThat(twice.vector(3)[0]).isCloseTo((float) Math.sqrt(0.5), within(1e-6f));
        assertThat(twice.similarities(new float[] {1, 0})).containsExactly(new double[] {0.8, 0.5, 1.0, (1 + Math.sqrt(0.5)) / 2, 0},
                within(1e-6));
        assertThat(base.similarities(new float[] {1, 0})).hasSize(2);
        assertThatThrownBy(() -> base.with(new float[][] {{1, 2, 3}})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 dimensions, the others 2");
    }

    @Test
    void similaritiesOfModelSizedVectorsAreTheExactCosines() {
        Random random = new Random(42);
        float[][] vectors = new float[50][];
        for (int i = 0; i < vectors.length; i++) {
            vectors[i] = gaussian(random, 384);
        }
        vectors[7] = new float[384]; // a zero vector scores as cosine 0
        float[] query = gaussian(random, 384);
        UnitVectors unit = UnitVectors.of(vectors, 384).with(new float[][] {vectors[3]});

        double[] similarities = unit.similarities(query);
        assertThat(similarities).hasSize(51);
        for (int i = 0; i < 51; i++) {
            float[] vector = vectors[i == 50 ? 3 : i];
            double dot = 0;
            double vectorNorm = 0;
            double queryNorm = 0;
            for (int d = 0; d < 384; d++) {
                dot += (double) vector[d] * query[d];
                vectorNorm += (double) vector[d] * vector[d];
                queryNorm += (double) query[d] * query[d];
            }
            double cosine = vectorNorm == 0 ? 0 : dot / Math.sqrt(vectorNorm * queryNorm);
            assertThat(similarities[i]).as("vector %d", i).isCloseTo((1 + cosine) / 2, within(1e-6));
        }
        assertThatThrownBy(() -> unit.similarities(new float[383])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("383 dimensions, the stored vectors 384");
    }

    @Test
    void theAppsJvmOptionsGiveTheScansSimdDotProducts() throws Exception {
        // a JVM started as the launcher starts the apps (C2, the apps' options) scans through Lucene's Vector API code,
        // which says so when it starts; without the options the plain loop scans (this test's own JVM runs C1 alone)
        assertThat(scanIn(JavaRuntime.appOptions())).contains("Java vector incubator API enabled");
        assertThat(scanIn(List.of())).doesNotContain("incubator");
    }

    /** What a fresh JVM with these options prints when it scans a few vectors (run with this test's classpath). */
    private static String scanIn(List<String> options) throws Exception {
        List<String> command = new ArrayList<>(List.of(JavaRuntime.javaBinary()));
        command.addAll(options);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Scan.class.getName()));
        Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(java.getInputStream().readAllBytes());
        assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(java.exitValue()).as(output).isZero();
        assertThat(output).as(output).contains("similarity 1.0000");
        return output;
    }

    /** The child JVM's work: one scan. */
    public static final class Scan {
        public static void main(String[] args) {
            float[] vector = gaussian(new Random(1), 384);
            System.out.printf(java.util.Locale.ROOT, "similarity %.4f%n", UnitVectors.of(new float[][] {vector}, 384).similarities(vector)[0]);
        }
    }

    private static float[] gaussian(Random random, int dimension) {
        float[] vector = new float[dimension];
        for (int d = 0; d < dimension; d++) {
            vector[d] = (float) random.nextGaussian();
        }
        return vector;
    }
}
