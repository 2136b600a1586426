package dev.openrag.ingest.stage.chunk;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Chunk sizes, in tokens (estimated as 4 characters each). */
@ConfigMapping(prefix = "openrag.chunking")
public interface ChunkingConfig {

    /** Target chunk size of the recursive and code splitters. */
    @WithDefault("400")
    int sizeTokens();

    /** Overlap between consecutive chunks of the recursive splitter. */
    @WithDefault("60")
    int overlapTokens();

    /** Markdown: sections smaller than this are merged with the next one under the same parent. */
    @WithDefault("100")
    int markdownMinTokens();

    /** Markdown: sections are packed by paragraph up to this size. */
    @WithDefault("400")
    int markdownTargetTokens();

    /** Markdown and code: a paragraph or declaration above this is split further (fences never). */
    @WithDefault("800")
    int maxTokens();
}
