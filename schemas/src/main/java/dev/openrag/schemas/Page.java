package dev.openrag.schemas;

/**
 * A page of a paginated document (PDF): its number from 1 and its characters {@code [start, end)}
 * in the extracted text, counted in UTF-16 code units as JavaScript's {@code String.slice} does.
 */
public record Page(int page, int start, int end) {
}
