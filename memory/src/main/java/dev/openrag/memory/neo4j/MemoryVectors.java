package dev.openrag.memory.neo4j;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;

import org.neo4j.driver.Record;
import org.neo4j.driver.Value;

/**
 * A memory's two vectors as its scope's in-memory copy reads them ({@link MemoryScopeCopies}): the first model's, and
 * the second model's (null: none).
 *
 * <p>Neo4j keeps the first as the list its vector index and Cypher's similarity functions need ({@code m.embedding}).
 * Both are also stored packed, as one byte array of 32-bit floats ({@code m.vectors}), because a list of floats is
 * the slowest thing to read out of Neo4j: every number is a 64-bit value for the server to decode and send and the
 * driver to box. A copy of a 10,000-memory scope was read in 1.5-1.8 s from the two lists and is read in 0.4-0.6 s
 * from the bytes (docs/benchmarks.md). The second model's list is no longer stored at all: nothing but a copy reads
 * it, so the bytes take its place and the vectors cost the same space as before.
 *
 * <p>{@code m.vectorsOf} holds the {@code updatedAt} the bytes were written at: every write that sets {@code updatedAt}
 * moves it along when the bytes stay right, so bytes it does not match were left behind by a write that did not know
 * them (a release before this one, during a rolling upgrade, that gave the memory a new text), and the lists are read
 * instead ({@link #READ}).
 */
record MemoryVectors(float[] embedding, float[] second) {

    /**
     * What to return for memory {@code m}, as {@code vectors}, {@code embedding} and {@code second}: the bytes when they
     * are current, the lists otherwise (memories written before them, or since by a release that does not write them).
     */
    static final String READ = """
            CASE WHEN m.vectorsOf = m.updatedAt THEN m.vectors END AS vectors,
            CASE WHEN m.vectorsOf = m.updatedAt THEN null ELSE m.embedding END AS embedding,
            CASE WHEN m.vectorsOf = m.updatedAt THEN null ELSE m.secondEmbedding END AS second""";

    /** The vectors of a record with the fields of {@link #READ}. */
    static MemoryVectors of(Record record) {
        Value packed = record.get("vectors");
        if (!packed.isNull()) {
            return unpacked(packed.asByteArray());
        }
        Value second = record.get("second");
        return new MemoryVectors(MemoryScopeCopies.floats(record.get("embedding")), second.isNull() ? null : MemoryScopeCopies.floats(second));
    }

    /** Both vectors as one byte array: the first's length, then its floats and the second's, little-endian. */
    byte[] packed() {
        int floats = embedding.length + (second == null ? 0 : second.length);
        ByteBuffer bytes = ByteBuffer.allocate(Integer.BYTES + Float.BYTES * floats).order(ByteOrder.LITTLE_ENDIAN);
        bytes.putInt(embedding.length);
        bytes.asFloatBuffer().put(embedding).put(second == null ? new float[0] : second);
        return bytes.array();
    }

    static MemoryVectors unpacked(byte[] packed) {
        ByteBuffer bytes = ByteBuffer.wrap(packed).order(ByteOrder.LITTLE_ENDIAN);
        int first = bytes.getInt();
        FloatBuffer floats = bytes.asFloatBuffer();
        if (first < 0 || first > floats.remaining()) {
            throw new IllegalStateException("packed memory vectors of " + packed.length + " bytes cannot hold a first vector of " + first);
        }
        float[] embedding = new float[first];
        floats.get(embedding);
        float[] second = floats.hasRemaining() ? new float[floats.remaining()] : null;
        if (second != null) {
            floats.get(second);
        }
        return new MemoryVectors(embedding, second);
    }
}
