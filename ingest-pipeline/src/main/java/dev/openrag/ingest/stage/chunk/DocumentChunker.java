package dev.openrag.ingest.stage.chunk;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import dev.openrag.knowledge.text.SourceCode;
import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.DocumentParsed;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.PremadeChunk;

/**
 * Picks the chunker for a document: pre-made chunks pass through untouched; Markdown-structured
 * text is chunked by section; source code at declarations; anything else recursively.
 */
@ApplicationScoped
public class DocumentChunker {

    static final int CHARS_PER_TOKEN = 4;

    private final ChunkingConfig config;

    public DocumentChunker(ChunkingConfig config) {
        this.config = config;
    }

    public List<Chunk> chunk(DocumentParsed document) {
        if (document.chunks() != null && !document.chunks().isEmpty()) {
            return premade(document);
        }
        String text = document.text();
        List<Chunk> chunks = new ArrayList<>();
        int index = 0;
        for (TextRange range : chunkerFor(document).chunk(text)) {
            String chunkText = text.substring(range.start(), range.end());
            if (chunkText.isBlank()) {
                continue;
            }
            chunks.add(new Chunk(Ids.chunkId(document.collection(), document.documentId(), index), index, chunkText,
                    range.headingPath(), range.start(), range.end(), null, null));
            index++;
        }
        return chunks;
    }

    Chunker chunkerFor(DocumentParsed document) {
        String language = SourceCode.language(document.source().uri(), document.mediaType(), document.text());
        if (language != null) {
            return new CodeChunker(language, config.sizeTokens() * CHARS_PER_TOKEN, config.maxTokens() * CHARS_PER_TOKEN);
        }
        boolean structured = "text/markdown".equals(document.mediaType())
                || (document.headings() != null && !document.headings().isEmpty());
        if (structured) {
            return new MarkdownChunker(config.markdownMinTokens() * CHARS_PER_TOKEN,
                    config.markdownTargetTokens() * CHARS_PER_TOKEN, config.maxTokens() * CHARS_PER_TOKEN);
        }
        return new PlainTextChunker(config.sizeTokens() * CHARS_PER_TOKEN, config.overlapTokens() * CHARS_PER_TOKEN);
    }

    /**
     * Pre-made chunks keep their index and text; their offsets are where the document text holds them
     * exactly (the next occurrence after the previous chunk's, else the first), {@code -1, -1} when it
     * does not: such a chunk carries no span.
     */
    private static List<Chunk> premade(DocumentParsed document) {
        List<Chunk> chunks = new ArrayList<>();
        int searchFrom = 0;
        for (PremadeChunk premade : document.chunks()) {
            int start = document.text().indexOf(premade.text(), searchFrom);
            if (start < 0) {
                start = document.text().indexOf(premade.text());
            }
            int end = start < 0 ? -1 : start + premade.text().length();
            if (start >= 0) {
                searchFrom = start + 1;
            }
            chunks.add(new Chunk(Ids.chunkId(document.collection(), document.documentId(), premade.index()), premade.index(),
                    premade.text(), List.of(), start, end, null, null));
        }
        return chunks;
    }
}
