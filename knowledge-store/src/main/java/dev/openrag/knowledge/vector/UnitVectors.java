package dev.openrag.knowledge.vector;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.lucene.util.VectorUtil;

/**
 * Vectors normalised to unit length, for exact cosine scans in memory (chunk collections in
 * {@link InMemoryVectorIndex}, memory scopes in {@code Neo4jMemoryStore}). Scores follow Neo4j's
 * {@code vector.similarity.cosine}: {@code (1 + cos) / 2}.
 *
 * <p>Dot products are Lucene's {@link VectorUtil} where the JVM was started with {@code --add-modules
 * jdk.incubator.vector} (the apps are, see local-stack's {@code JavaRuntime}): SIMD through the JDK's Vector API under
 * C2, a plain loop under C1 alone, and Lucene logs which at the first scan. Without the module, Lucene's plain loop is
 * slower than {@link #plainDot} (2.5 against 1.6 ms for 10,000 vectors of 384), so that one is used. One array per
 * vector, as Lucene's API takes whole arrays.
 */
public final class UnitVectors {

    /** Whether Lucene can reach the Vector API (docs above). */
    private static final boolean VECTOR_API = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();

    /** The vectors, maybe with room after them that the first {@link #with} of this instance fills in place. */
    private final float[][] vectors;
    private final int dimension;
    private final int size;
    private final AtomicBoolean grown = new AtomicBoolean();

    private UnitVectors(float[][] vectors, int dimension, int size) {
        this.vectors = vectors;
        this.dimension = dimension;
        this.size = size;
    }

    /** The vectors normalised; all must have {@code dimension} values (a zero vector stays zero). */
    public static UnitVectors of(float[][] vectors, int dimension) {
        float[][] normalised = new float[vectors.length][];
        normalise(vectors, normalised, 0); // (their sizes are the caller's to check)
        return new UnitVectors(normalised, dimension, vectors.length);
    }

    /**
     * These vectors and {@code more} after them, normalised. The first call on an instance writes into
     * the room past its vectors when there is enough (the instance itself still sees only its own
     * {@link #size}) and makes room for a quarter more when there is not, so a copy that grows one
     * memory at a time does not copy all its vectors' references each time.
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
        int needed = size + more.length;
        float[][] target = vectors;
        if (needed > vectors.length || !grown.compareAndSet(false, true)) {
            target = Arrays.copyOf(vectors, Math.max(needed, needed + needed / 4));
            Arrays.fill(target, size, target.length, null);
        }
        normalise(more, target, size);
        return new UnitVectors(target, dimension, needed);
    }

    /**
     * The vectors at {@code positions}, in that order, each one that {@code replacements} has a vector for
     * replaced by it, normalised; the others are taken as they are, not normalised again.
     */
    public UnitVectors select(int[] positions, Map<Integer, float[]> replacements) {
        float[][] target = new float[positions.length][];
        for (int k = 0; k < positions.length; k++) {
            float[] replacement = replacements.get(positions[k]);
            if (replacement == null) {
                target[k] = vectors[positions[k]]; // never written to once normalised, so shared
            } else {
                checkDimension(replacement, "the others");
                normalise(new float[][] {replacement}, target, k);
            }
        }
        return new UnitVectors(target, dimension, positions.length);
    }

    private static void normalise(float[][] vectors, float[][] target, int from) {
        for (int i = 0; i < vectors.length; i++) {
            float[] vector = vectors[i];
            double norm = norm(vector);
            float[] unit = new float[vector.length];
            for (int d = 0; d < vector.length; d++) {
                unit[d] = norm == 0 ? 0 : (float) (vector[d] / norm);
            }
            target[from + i] = unit;
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
        return vectors[i].clone();
    }

    /** Cosine of the query with vector {@code i}; {@code queryNorm} is the query's length (0: cosine 0). */
    public double cosine(int i, float[] query, double queryNorm) {
        return queryNorm == 0 ? 0 : dot(vectors[i], query) / queryNorm;
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
        return Math.sqrt(dot(vector, vector));
    }

    private static double dot(float[] vector, float[] query) {
        if (vector.length != query.length) {
            throw new IllegalArgumentException("vectors of " + vector.length + " and " + query.length + " dimensions");
        }
        return VECTOR_API ? VectorUtil.dotProduct(vector, query) : plainDot(vector, query);
    }

    /**
     * The dot product of two vectors of one length, eight sums at a time (with one array per vector, four sums took
     * 2.2 ms for 10,000 vectors of 384, eight 1.6 ms).
     */
    static double plainDot(float[] vector, float[] query) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        float s4 = 0;
        float s5 = 0;
        float s6 = 0;
        float s7 = 0;
        int d = 0;
        int length = vector.length;
        for (; d + 7 < length; d += 8) {
            s0 += vector[d] * query[d];
            s1 += vector[d + 1] * query[d + 1];
            s2 += vector[d + 2] * query[d + 2];
            s3 += vector[d + 3] * query[d + 3];
            s4 += vector[d + 4] * query[d + 4];
            s5 += vector[d + 5] * query[d + 5];
            s6 += vector[d + 6] * query[d + 6];
            s7 += vector[d + 7] * query[d + 7];
        }
        for (; d < length; d++) {
            s0 += vector[d] * query[d];
        }
        return (double) s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
    }
}
