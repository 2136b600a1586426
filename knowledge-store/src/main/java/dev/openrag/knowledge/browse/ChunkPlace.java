package dev.openrag.knowledge.browse;

import java.util.List;

import dev.openrag.schemas.Heading;
import dev.openrag.schemas.Page;

/**
 * Where chunk {@code index} lies in one version of its document's text, kept beside the text so that a
 * citation needs no read of the text itself: {@code [start, end)} (UTF-16 code units), the hash of the
 * text there ({@code textHash}; null when the offsets lie outside the text), the pages that share a
 * character with it and the document's last page (pages are looked up as {@link DocumentText#pageAt}
 * does), and the headings that decide a heading path inside it: those open at {@code start}, then those
 * inside it. Small whatever the document's size.
 *
 * <p>A chunk of the version whose text the document's text does not hold at its offsets (a pre-made
 * chunk, such as an OpenAPI operation rendered from its spec) is placed {@linkplain #elsewhere elsewhere}:
 * no offsets, pages or headings, only its own text's hash, so that a hit on it is known as this
 * version's chunk from the hit's text alone, whatever the document's size.
 */
public record ChunkPlace(String collection, String documentId, String version, int index, int start, int end, String textHash,
                         List<Page> pages, Integer lastPage, List<Heading> headings) {

    /** The offsets of a place {@linkplain #elsewhere elsewhere}. */
    public static final int NOWHERE = -1;

    /** Chunk {@code index} of a version, whose text (hashed: {@code textHash}) the document's text does not hold at its offsets. */
    public static ChunkPlace elsewhere(String collection, String documentId, String version, int index, String textHash) {
        return new ChunkPlace(collection, documentId, version, index, NOWHERE, NOWHERE, textHash, List.of(), null, List.of());
    }

    /** Whether this version's chunk lies elsewhere than in the document's text (it has no offsets: {@link #elsewhere}). */
    public boolean isElsewhere() {
        return start == NOWHERE && end == NOWHERE && textHash != null;
    }

    /**
     * Whether {@code chunkText} is this version's chunk (the hit's chunk is of this version): exactly the
     * document's text at this place, or, for a chunk {@linkplain #isElsewhere elsewhere}, the text it was chunked with.
     */
    public boolean holds(String chunkText) {
        return textHash != null && (isElsewhere() || end - start == chunkText.length()) && textHash.equals(hash(chunkText));
    }

    /** Whether the offsets lie inside the text they were stored with (a place elsewhere has none to lie outside it). */
    public boolean inRange() {
        return textHash != null;
    }

    /** The page {@code offset} (inside this place) is printed on, as {@link DocumentText#pageAt} gives it. */
    public Integer pageAt(int offset) {
        return DocumentText.pageAt(pages, lastPage, offset);
    }

    /** The headings above {@code offset} (inside this place), as {@link DocumentText#headingPathAt} gives them. */
    public List<String> headingPathAt(int offset) {
        return DocumentText.headingPathAt(headings, offset);
    }

    /** The hash a place keeps of its text: SHA-256 of its UTF-16 code units (a lone surrogate counts as itself). */
    public static String hash(String text) {
        byte[] units = new byte[text.length() * 2];
        for (int i = 0; i < text.length(); i++) {
            units[2 * i] = (byte) (text.charAt(i) >> 8);
            units[2 * i + 1] = (byte) text.charAt(i);
        }
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(units));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
