package dev.openrag.memory.runtime;

import dev.openrag.memory.neo4j.Neo4jMemoryStore.SearchTuning;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

/** How memory searches keep scopes in memory and rank ({@code openrag.memory.*}; {@link SearchTuning} says why each default). */
@ConfigMapping(prefix = "openrag.memory")
public interface MemorySearchSettings {

    /**
     * How many memories searches may keep in in-memory copies of their scopes (0: none; every vector
     * list is then a Neo4j query). The vectors of 50,000 memories of 384 dimensions take
     * about 80 MB of heap, twice that with the second model's ({@link #secondModel}); their texts and word index
     * (BM25, feedback) add in proportion to the texts' length.
     */
    @WithName("copies.max-memories")
    @WithDefault("50000")
    long maxCopied();

    /** The constant of the reciprocal rank fusion of a hybrid memory search's lists (docs/benchmarks.md, LoCoMo). */
    @WithDefault("" + SearchTuning.DEFAULT_RRF_K)
    int rrfK();

    /** How many first hits lend their words to a hybrid memory search's feedback list (0: no feedback list). */
    @WithName("feedback.hits")
    @WithDefault("" + SearchTuning.DEFAULT_FEEDBACK_HITS)
    int feedbackHits();

    /** How many of their words join the query's in the feedback list (0: no feedback list). */
    @WithName("feedback.terms")
    @WithDefault("" + SearchTuning.DEFAULT_FEEDBACK_TERMS)
    int feedbackTerms();

    /** What a memory another speaker said keeps of its score when a question is about one speaker (1: no focus). */
    @WithDefault("" + SearchTuning.DEFAULT_OTHER_SPEAKER_WEIGHT)
    double otherSpeakerWeight();

    /** Whether word search matches words by their stems, each in its language ("books" finds "book", "Häuser" "Haus"). */
    @WithDefault("" + SearchTuning.DEFAULT_STEMMING)
    boolean stemming();

    /** How much a memory's episode (the same day's fused hits) lends it in a hybrid search (0: off). */
    @WithDefault("" + SearchTuning.DEFAULT_EPISODE_WEIGHT)
    double episodeWeight();

    /**
     * The second embedding model whose nearest memories a hybrid search fuses as a list of its own
     * ({@link dev.openrag.knowledge.embedding.SecondEmbedder}; {@code none}: off). Memories added while
     * it was off have no second vector; their scope then searches without that list.
     */
    @WithDefault("e5-small-v2-q")
    String secondModel();

    /** The second-model cosine two memories need to be read as answering the same question ({@link dev.openrag.memory.NewerWins}; 2: off). */
    @WithName("newer-wins.closeness")
    @WithDefault("" + dev.openrag.memory.NewerWins.Rule.DEFAULT_CLOSENESS)
    double newerWinsCloseness();

    /** How much the question may prefer the older memory and the newer still go above it ({@link dev.openrag.memory.NewerWins}). */
    @WithName("newer-wins.margin")
    @WithDefault("" + dev.openrag.memory.NewerWins.Rule.DEFAULT_MARGIN)
    double newerWinsMargin();

    /** The ranking settings, validated ({@link SearchTuning} refuses values out of range). */
    default SearchTuning tuning() {
        return new SearchTuning(rrfK(), feedbackHits(), feedbackTerms(), otherSpeakerWeight(), stemming(), episodeWeight(),
                new dev.openrag.memory.NewerWins.Rule(newerWinsCloseness(), newerWinsMargin()));
    }
}
