package dev.openrag.knowledge.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.neo4j.driver.Driver;

import dev.openrag.knowledge.neo4j.Neo4jMemoryStore;
import dev.openrag.knowledge.neo4j.Neo4jMemoryStore.SearchTuning;
import dev.openrag.knowledge.port.MemoryStore;

/** Agents' memory lives in Neo4j: mcp-memory writes it, query-api reads pinned memories and corrections. */
@ApplicationScoped
public class MemoryStoreProducer {

    /**
     * How many memories searches may keep in in-memory copies of their scopes (0: none; every vector
     * list is then a Neo4j query). The vectors of 50,000 memories of 384 dimensions take
     * about 80 MB of heap; their texts and word index (BM25, feedback) add in proportion to the texts' length.
     */
    @ConfigProperty(name = "openrag.memory.copies.max-memories", defaultValue = "50000")
    long maxCopied;

    /** The constant of the reciprocal rank fusion of a hybrid memory search's lists (docs/benchmarks.md, LoCoMo). */
    @ConfigProperty(name = "openrag.memory.rrf-k", defaultValue = "" + SearchTuning.DEFAULT_RRF_K)
    int rrfK;

    /** How many first hits lend their words to a hybrid memory search's feedback list (0: no feedback list). */
    @ConfigProperty(name = "openrag.memory.feedback.hits", defaultValue = "" + SearchTuning.DEFAULT_FEEDBACK_HITS)
    int feedbackHits;

    /** How many of their words join the query's in the feedback list (0: no feedback list). */
    @ConfigProperty(name = "openrag.memory.feedback.terms", defaultValue = "" + SearchTuning.DEFAULT_FEEDBACK_TERMS)
    int feedbackTerms;

    /** What a memory another speaker said keeps of its score when a question names exactly one speaker (1: no focus). */
    @ConfigProperty(name = "openrag.memory.other-speaker-weight", defaultValue = "" + SearchTuning.DEFAULT_OTHER_SPEAKER_WEIGHT)
    double otherSpeakerWeight;

    /** Whether BM25 over a scope's copy matches words by their English stems ("books" finds "book"). */
    @ConfigProperty(name = "openrag.memory.stemming", defaultValue = "" + SearchTuning.DEFAULT_STEMMING)
    boolean stemming;

    /** How much a memory's episode (the same day's fused hits) lends it in a hybrid search (0: off). */
    @ConfigProperty(name = "openrag.memory.episode-weight", defaultValue = "" + SearchTuning.DEFAULT_EPISODE_WEIGHT)
    double episodeWeight;

    @Produces
    @Singleton
    MemoryStore memoryStore(Driver driver) {
        return new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, maxCopied,
                new SearchTuning(rrfK, feedbackHits, feedbackTerms, otherSpeakerWeight, stemming, episodeWeight));
    }
}
