package dev.openrag.knowledge.browse;

import java.util.List;
import java.util.Optional;

import dev.openrag.schemas.Heading;
import dev.openrag.schemas.Page;

/**
 * A document's extracted text as one version (its content hash) holds it, with its pages (PDF), its
 * headings and where each chunk of that version lies in it. Offsets count UTF-16 code units, as
 * Java's {@code String} and JavaScript's {@code String.slice} do, so a browser highlights them as they are.
 *
 * <p>{@code elsewhere}: the version's chunks that do not lie in the text at their offsets (pre-made
 * chunks it does not hold), so that with {@code chunks} they are every chunk of the version; null where
 * that is not known (a text stored before it was kept).
 */
public record DocumentText(String collection, String documentId, String version, String text, List<Page> pages,
                           List<Heading> headings, List<ChunkSpan> chunks, List<Elsewhere> elsewhere) {

    /** A text whose version's chunks all lie at {@code chunks} (none elsewhere). */
    public DocumentText(String collection, String documentId, String version, String text, List<Page> pages, List<Heading> headings,
                        List<ChunkSpan> chunks) {
        this(collection, documentId, version, text, pages, headings, chunks, List.of());
    }

    /** Chunk {@code index} of this version lies at {@code [start, end)}; a chunk not found in the text has no entry. */
    public record ChunkSpan(int index, int start, int end) {
    }

    /** Chunk {@code index} of this version is not in the text at its offsets; {@code textHash}: its own text's {@link ChunkPlace#hash}. */
    public record Elsewhere(int index, String textHash) {
    }

    /** Whether every chunk of the version is known: at its span or {@linkplain #elsewhere elsewhere}. */
    public boolean knowsEveryChunk() {
        return elsewhere != null;
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
     * hash; a chunk {@linkplain #elsewhere elsewhere}, a place elsewhere. One pass over the headings for all chunks, and
     * a binary search for each chunk's pages (a long text has many of each).
     */
    public List<ChunkPlace> places() {
        Integer lastPage = pages.isEmpty() ? null : pages.get(pages.size() - 1).page();
        List<ChunkSpan> byStart = chunks.stream().sorted(java.util.Comparator.comparingInt(ChunkSpan::start)).toList();
        PagesByStart sharing = new PagesByStart(pages);
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
            boolean inside = chunk.start() >= 0 && chunk.start() <= chunk.end() && chunk.end() <= text.length();
            places.add(new ChunkPlace(collection, documentId, version, chunk.index(), chunk.start(), chunk.end(),
                    inside ? ChunkPlace.hash(text.substring(chunk.start(), chunk.end())) : null,
                    sharing.sharing(chunk.start(), Math.max(chunk.end(), chunk.start() + 1)), lastPage, List.copyOf(deciding)));
        }
        if (elsewhere != null) {
            elsewhere.forEach(chunk -> places.add(ChunkPlace.elsewhere(collection, documentId, version, chunk.index(), chunk.textHash())));
        }
        return places;
    }

    /** Chunk {@code index}'s place ({@link #places}), if the text has a span for it or knows it lies elsewhere. */
    public Optional<ChunkPlace> place(int index) {
        Optional<ChunkPlace> at = chunk(index).map(span -> new DocumentText(collection, documentId, version, text, pages, headings,
                List.of(span)).places().get(0));
        if (at.isPresent() || elsewhere == null) {
            return at;
        }
        return elsewhere.stream().filter(chunk -> chunk.index() == index).findFirst()
                .map(chunk -> ChunkPlace.elsewhere(collection, documentId, version, index, chunk.textHash()));
    }

    /**
     * Pages ordered by start, each with the greatest end up to it: the pages that share a character with
     * {@code [from, to)} lie between the first whose greatest end passes {@code from} and the last that
     * starts before {@code to}, two binary searches apart (contiguous pages: exactly those).
     */
    private static final class PagesByStart {

        private final List<Page> pages;
        private final int[] order;
        private final int[] starts;
        private final int[] greatestEnds;

        PagesByStart(List<Page> pages) {
            this.pages = pages;
            this.order = java.util.stream.IntStream.range(0, pages.size()).boxed()
                    .sorted(java.util.Comparator.comparingInt(i -> pages.get(i).start())).mapToInt(Integer::intValue).toArray();
            this.starts = new int[order.length];
            this.greatestEnds = new int[order.length];
            for (int i = 0; i < order.length; i++) {
                starts[i] = pages.get(order[i]).start();
                greatestEnds[i] = Math.max(pages.get(order[i]).end(), i == 0 ? Integer.MIN_VALUE : greatestEnds[i - 1]);
            }
        }

        /** The pages with {@code start < to} and {@code end > from}, in their order in the text's list ({@link #pageAt} reads it in order). */
        List<Page> sharing(int from, int to) {
            int first = firstAbove(greatestEnds, from);
            int last = firstAbove(starts, to - 1); // the pages before it start before `to`
            List<Integer> found = new java.util.ArrayList<>();
            for (int i = first; i < last; i++) {
                if (pages.get(order[i]).end() > from) {
                    found.add(order[i]);
                }
            }
            found.sort(null);
            return found.stream().map(pages::get).toList();
        }

        /** The first position of the ascending {@code values} holding a value above {@code bound} ({@code values.length}: none). */
        private static int firstAbove(int[] values, int bound) {
            int low = 0;
            int high = values.length;
            while (low < high) {
                int middle = (low + high) >>> 1;
                if (values[middle] > bound) {
                    high = middle;
                } else {
                    low = middle + 1;
                }
            }
            return low;
        }
    }
}
