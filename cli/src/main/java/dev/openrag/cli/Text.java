package dev.openrag.cli;

/** Console text helpers. */
final class Text {

    private Text() {
    }

    /** One line of at most {@code max} characters. */
    static String abbreviate(String text, int max) {
        String line = text.replaceAll("\\s+", " ").strip();
        return line.length() <= max ? line : line.substring(0, max - 1) + "…";
    }
}
