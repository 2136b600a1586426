package dev.openrag.schemas;

/** A heading found by the parser: level 1..6, its text and its character offset in the text. */
public record Heading(int level, String text, int offset) {
}
