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
        return pageAt(pages, pages.isEmpty() ? null : pages.get(pages.size() - 1).page(), offset);
    }

    /** The headings above {@code offset}, outermost first (empty for a text without headings). */
    public List<String> headingPathAt(int offset) {
        return headingPathAt(headings, offset);
    }

    /** The first of {@code pages} holding {@code offset}, else {@code lastPage}. */
    static Integer pageAt(List<Page> pages, Integer lastPage, int offset) {
        for (Page page : pages) {
            if (offset >= page.start() && offset < page.end()) {
                return page.page();
            }
        }
        return lastPage;
    }

    /** The path of headings open at {@code offset}, reading {@code headings} in order up to the first one past it. */
    static List<String> headingPathAt(List<Heading> headings, int offset) {
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

    /**
     * Every chunk's place ({@link ChunkPlace}), cut from this text so that a citation can be made from
     * the place alone: its pages and headings give the same page and heading path at any offset inside
     * the chunk as this text does. A chunk whose offsets lie outside the text gets a place without a
     * hash. One pass over the headings for all chunks (a long text has many of both).
     */
    public List<ChunkPlace> places() {
        Integer lastPage = pages.isEmpty() ? null : pages.get(pages.size() - 1).page();
        List<ChunkSpan> byStart = chunks.stream().sorted(java.util.Comparator.comparingInt(ChunkSpan::start)).toList();
        List<ChunkPlace> places = new java.util.ArrayList<>();
        java.util.ArrayDeque<Heading> open = new java.util.ArrayDeque<>();
        int read = 0; // headings read so far: those before the first one past the current chunk's start
        for (ChunkSpan chunk : byStart) {
            while (read < headings.size() && headings.get(read).offset() <= chunk.start()) {
                Heading heading = headings.get(read++);
                while (!open.isEmpty() && open.peekLast().level() >= heading.level()) {
                    open.removeLast();
                }
                open.addLast(heading);
            }
            List<Heading> deciding = new java.util.ArrayList<>(open);
            for (int i = read; i < headings.size() && headings.get(i).offset() < chunk.end(); i++) {
                deciding.add(headings.get(i));
            }
            int last = Math.max(chunk.end(), chunk.start() + 1);
            List<Page> sharing = pages.stream().filter(page -> page.start() < last && page.end() > chunk.start()).toList();
            boolean inside = chunk.start() >= 0 && chunk.start() <= chunk.end() && chunk.end() <= text.length();
            places.add(new ChunkPlace(collection, documentId, version, chunk.index(), chunk.start(), chunk.end(),
                    inside ? ChunkPlace.hash(text.substring(chunk.start(), chunk.end())) : null, sharing, lastPage, List.copyOf(deciding)));
        }
        return places;
    }

    /** Chunk {@code index}'s place ({@link #places}), if the text has a span for it. */
    public Optional<ChunkPlace> place(int index) {
        return chunk(index).map(span -> new DocumentText(collection, documentId, version, text, pages, headings, List.of(span))
                .places().get(0));
    }
}
