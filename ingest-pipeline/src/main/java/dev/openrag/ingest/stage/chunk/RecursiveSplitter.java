package dev.openrag.ingest.stage.chunk;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits text into pieces no longer than a limit, trying the coarsest boundary first (blank line,
 * line, sentence, word) and only then cutting inside words; then packs the pieces into chunks of
 * at most {@code size} characters with about {@code overlap} characters carried over. Works on
 * offsets, so every chunk knows where it came from.
 */
final class RecursiveSplitter {

    private static final List<String> SEPARATORS = List.of("\n\n", "\n", ". ", " ");

    private RecursiveSplitter() {
    }

    /**
     * Pieces of [start, end) each at most {@code limit} characters, covering the range without gaps; a
     * supplementary character (a surrogate pair) is never cut in two (with a limit of 1 its piece is 2).
     */
    static List<TextRange> pieces(String text, int start, int end, int limit, List<String> headingPath) {
        List<TextRange> out = new ArrayList<>();
        split(text, start, end, limit, 0, headingPath, out);
        return out;
    }

    private static void split(String text, int start, int end, int limit, int level, List<String> path, List<TextRange> out) {
        if (end - start <= limit) {
            out.add(new TextRange(start, end, path));
            return;
        }
        if (level == SEPARATORS.size()) {
            for (int at = start; at < end; ) {
                int cut = Math.min(end, at + limit);
                // never between a surrogate pair's halves: a lone surrogate is stored as '?', so its hash would not match
                if (cut < end && Character.isHighSurrogate(text.charAt(cut - 1)) && Character.isLowSurrogate(text.charAt(cut))) {
                    cut = cut - 1 > at ? cut - 1 : cut + 1; // a limit of 1 takes the whole pair
                }
                out.add(new TextRange(at, cut, path));
                at = cut;
            }
            return;
        }
        String separator = SEPARATORS.get(level);
        int pieceStart = start;
        while (pieceStart < end) {
            int found = text.indexOf(separator, pieceStart);
            int pieceEnd = found < 0 || found >= end ? end : found + separator.length();
            split(text, pieceStart, pieceEnd, limit, level + 1, path, out);
            pieceStart = pieceEnd;
        }
    }

    /** Greedy packing of consecutive pieces into chunks of at most {@code size}, overlapping by up to {@code overlap}. */
    static List<TextRange> pack(List<TextRange> pieces, int size, int overlap) {
        List<TextRange> chunks = new ArrayList<>();
        int first = 0;
        while (first < pieces.size()) {
            int last = first;
            int length = pieces.get(first).length();
            while (last + 1 < pieces.size() && length + pieces.get(last + 1).length() <= size) {
                last++;
                length += pieces.get(last).length();
            }
            chunks.add(new TextRange(pieces.get(first).start(), pieces.get(last).end(), pieces.get(first).headingPath()));
            if (last + 1 >= pieces.size()) {
                break;
            }
            // start the next chunk with the trailing pieces of this one that fit in the overlap
            int next = last + 1;
            int carried = 0;
            while (next - 1 > first && carried + pieces.get(next - 1).length() <= overlap) {
                next--;
                carried += pieces.get(next).length();
            }
            first = next;
        }
        return chunks;
    }
}
