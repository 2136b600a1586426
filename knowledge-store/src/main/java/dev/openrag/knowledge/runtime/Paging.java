package dev.openrag.knowledge.runtime;

/**
 * Page and size from a caller, checked before any arithmetic: {@code (page - 1) * size} in
 * {@code int} overflows for page 20,000,000 × size 200 and reached the store as a negative SKIP.
 */
public final class Paging {

    /** No listing here goes deeper than this many items; a deeper page is a caller's mistake, not a query. */
    public static final long MAX_OFFSET = 1_000_000;

    private Paging() {
    }

    /** The offset of the page's first item, or a 400 naming what is wrong. */
    public static int offset(int page, int size, int maxSize) {
        if (page < 1) {
            throw ApiException.badRequest("'page' must be 1 or more, got " + page);
        }
        if (size < 1 || size > maxSize) {
            throw ApiException.badRequest("'size' must be between 1 and " + maxSize + ", got " + size);
        }
        long offset = (page - 1L) * size;
        if (offset > MAX_OFFSET) {
            throw ApiException.badRequest("'page' " + page + " with 'size' " + size + " starts past item " + MAX_OFFSET
                    + ", the deepest a listing pages; narrow it with a filter instead");
        }
        return (int) offset;
    }
}
