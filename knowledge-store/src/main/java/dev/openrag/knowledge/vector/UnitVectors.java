package dev.openrag.knowledge.vector;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Vectors normalised to unit length and laid end to end in one array, for exact cosine scans in
 * memory (chunk collections in {@link InMemoryVectorIndex}, memory scopes in
 * {@code Neo4jMemoryStore}). Scores follow Neo4j's {@code vector.similarity.cosine}: {@code (1 + cos) / 2}.
 */
public final class UnitVectors {

    /** The vectors end to end, maybe with room after them that the first {@link #with} of this instance fills in place. */
    private final float[] values;
    private final int dimension;
    private final int size;
    private final AtomicBoolean grown = new AtomicBoolean();

    private UnitVectors(float[] values, int dimension, int size) {
        this.values = values;
        this.dimension = dimension;
        this.size = size;
    }

    /** The vectors normalised; all must have {@code dimension} values (a zero vector stays zero). */
    public static UnitVectors of(float[][] vectors, int dimension) {
        float[] values = new float[vectors.length * dimension];
        normalise(vectors, dimension, values, 0); // (their sizes are the caller's to check)
        return new UnitVectors(values, dimension, vectors.length);
    }

    /**
     * These vectors and {@code more} after them, normalised. The first call on an instance writes into
     * the room past its vectors when there is enough (the instance itself still sees only its own
     * {@link #size}) and makes room for a quarter more when there is not, so a copy that grows one
     * memory at a time does not copy all its vectors each time.
     */
    public UnitVectors with(float[][] more) {
        if (more.length == 0) {
            return this;
        }
        for (float[] vector : more) {
            if (vector.length != dimension) {
                throw new IllegalArgumentException("a vector has " + vector.length + " dimensions, the others " + dimension);
            }
        }
        int needed = (size + more.length) * dimension;
        float[] target = values;
        if (needed > values.length || !grown.compareAndSet(false, true)) {
            target = Arrays.copyOf(values, Math.max(needed, needed + needed / 4));
            Arrays.fill(target, size * dimension, target.length, 0);
        }
        normalise(more, dimension, target, size);
        return new UnitVectors(target, dimension, size + more.length);
    }

    /**
     * The vectors at {@code positions}, in that order, each one that {@code replacements} has a vector for
     * replaced by it, normalised; the others are taken as they are, not normalised again.
     */
    public UnitVectors select(int[] positions, Map<Integer, float[]> replacements) {
        float[] target = new float[positions.length * dimension];
        for (int k = 0; k < positions.length; k++) {
            float[] replacement = replacements.get(positions[k]);
            if (replacement == null) {
                System.arraycopy(values, positions[k] * dimension, target, k * dimension, dimension);
            } else {
                checkDimension(replacement, "the others");
                normalise(new float[][] {replacement}, dimension, target, k);
            }
        }
        return new UnitVectors(target, dimension, positions.length);
    }

    private static void normalise(float[][] vectors, int dimension, float[] values, int from) {
        for (int i = 0; i < vectors.length; i++) {
            float[] vector = vectors[i];
            double norm = Math.sqrt(dot(vector, 0, vector));
            for (int d = 0; d < dimension; d++) {
                values[(from + i) * dimension + d] = norm == 0 ? 0 : (float) (vector[d] / norm);
            }
        }
    }

    public int dimension() {
        return dimension;
    }

    public int size() {
        return size;
    }

    /** Vector {@code i}, normalised (a copy). */
    public float[] vector(int i) {
        float[] vector = new float[dimension];
        System.arraycopy(values, i * dimension, vector, 0, dimension);
        return vector;
    }

    /** Cosine of the query with vector {@code i}; {@code queryNorm} is the query's length (0: cosine 0). */
    public double cosine(int i, float[] query, double queryNorm) {
        return queryNorm == 0 ? 0 : dot(values, i * dimension, query) / queryNorm;
    }

    /** Every vector's similarity to the query as Neo4j scores it, {@code (1 + cos) / 2}, in order. */
    public double[] similarities(float[] query) {
        checkDimension(query, "the stored vectors");
        double queryNorm = norm(query);
        double[] similarities = new double[size];
        for (int i = 0; i < size; i++) {
            similarities[i] = (1 + cosine(i, query, queryNorm)) / 2;
        }
        return similarities;
    }

    /** Fails when the query's dimension is not the stored vectors' ({@code stored} names them in the message). */
    public void checkDimension(float[] query, String stored) {
        if (size > 0 && query.length != dimension) {
            throw new IllegalArgumentException("the query vector has " + query.length + " dimensions, " + stored + " " + dimension);
        }
    }

    public static double norm(float[] vector) {
        return Math.sqrt(dot(vector, 0, vector));
    }

    /** The dot product of {@code query} with the vector at {@code offset} of {@code vectors}, four sums at a time. */
    static double dot(float[] vectors, int offset, float[] query) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        int d = 0;
        for (; d + 3 < query.length; d += 4) {
            s0 += vectors[offset + d] * query[d];
            s1 += vectors[offset + d + 1] * query[d + 1];
            s2 += vectors[offset + d + 2] * query[d + 2];
            s3 += vectors[offset + d + 3] * query[d + 3];
        }
        for (; d < query.length; d++) {
            s0 += vectors[offset + d] * query[d];
        }
        return (double) s0 + s1 + s2 + s3;
    }
}
