package dev.openrag.knowledge.browse;

import java.util.List;
import java.util.Optional;

import dev.openrag.schemas.Heading;
import dev.openrag.schemas.Page;

/**
 * A document's extracted text as one version (its content hash) holds it, with its pages (PDF), its
 * headings and where each chunk of that version lies in it. Offsets count UTF-16 code units, as
 * Java's {@code String} and JavaScript's {@code String.slice} do, so a browser highlights them as they are.
 */
public record DocumentText(String collection, String documentId, String version, String text, List<Page> pages,
                           List<Heading> headings, List<ChunkSpan> chunks) {

    /** Chunk {@code index} of this version lies at {@code [start, end)}; a chunk not found in the text has no entry. */
    public record ChunkSpan(int index, int start, int end) {
    }

    public Optional<ChunkSpan> chunk(int index) {
        return chunks.stream().filter(span -> span.index() == index).findFirst();
    }

    /** The page {@code offset} is printed on (null for a text without pages). */
    public Integer pageAt(int offset) {
        for (Page page : pages) {
            if (offset >= page.start() && offset < page.end()) {
                return page.page();
            }
        }
        return pages.isEmpty() ? null : pages.get(pages.size() - 1).page();
    }

    /** The headings above {@code offset}, outermost first (empty for a text without headings). */
    public List<String> headingPathAt(int offset) {
        java.util.ArrayDeque<Heading> path = new java.util.ArrayDeque<>();
        for (Heading heading : headings) {
            if (heading.offset() > offset) {
                break;
            }
            while (!path.isEmpty() && path.peekLast().level() >= heading.level()) {
                path.removeLast();
            }
            path.addLast(heading);
        }
        return path.stream().map(Heading::text).toList();
    }
}
