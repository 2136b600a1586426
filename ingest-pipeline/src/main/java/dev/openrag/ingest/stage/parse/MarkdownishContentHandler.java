package dev.openrag.ingest.stage.parse;

import java.util.Set;

import org.xml.sax.Attributes;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Turns Tika's XHTML (from HTML, PDF, DOCX, EPUB, ...) into plain text with Markdown-style
 * headings ({@code ## Title}), so the section-aware chunker sees every format's structure the
 * same way.
 */
final class MarkdownishContentHandler extends DefaultHandler {

    private static final Set<String> BLOCKS = Set.of("p", "div", "li", "tr", "br", "pre", "blockquote", "section",
            "article", "table", "ul", "ol", "dt", "dd");
    private static final Set<String> SKIPPED = Set.of("script", "style", "head", "title");

    private final StringBuilder text = new StringBuilder();
    private final int maxChars;
    private int skipDepth;
    private int headingLevel;
    private int headingStart;

    MarkdownishContentHandler(int maxChars) {
        this.maxChars = maxChars;
    }

    @Override
    public void startElement(String uri, String localName, String qName, Attributes attributes) {
        String name = localName.isEmpty() ? qName : localName;
        if (SKIPPED.contains(name)) {
            skipDepth++;
        } else if (name.length() == 2 && name.charAt(0) == 'h' && Character.isDigit(name.charAt(1))) {
            headingLevel = Math.min(6, Math.max(1, name.charAt(1) - '0'));
            newParagraph();
            headingStart = text.length();
            text.append("#".repeat(headingLevel)).append(' ');
        } else if (BLOCKS.contains(name)) {
            newLine();
        }
    }

    @Override
    public void endElement(String uri, String localName, String qName) {
        String name = localName.isEmpty() ? qName : localName;
        if (SKIPPED.contains(name)) {
            skipDepth--;
        } else if (headingLevel > 0 && name.length() == 2 && name.charAt(0) == 'h' && Character.isDigit(name.charAt(1))) {
            if (text.substring(headingStart + headingLevel + 1).isBlank()) {
                text.setLength(headingStart); // an empty heading is noise
            } else {
                text.append("\n\n");
            }
            headingLevel = 0;
        } else if (name.equals("p") || name.equals("div")) {
            newParagraph();
        }
    }

    @Override
    public void characters(char[] ch, int start, int length) {
        if (skipDepth == 0 && text.length() < maxChars) {
            text.append(ch, start, length);
        }
    }

    @Override
    public void ignorableWhitespace(char[] ch, int start, int length) {
        characters(ch, start, length);
    }

    private void newLine() {
        if (!text.isEmpty() && text.charAt(text.length() - 1) != '\n') {
            text.append('\n');
        }
    }

    private void newParagraph() {
        newLine();
        if (text.length() >= 2 && text.charAt(text.length() - 2) != '\n') {
            text.append('\n');
        }
    }

    String text() {
        return text.toString().replaceAll("[ \\t\\x0B\\f\\r]+\\n", "\n").replaceAll("\\n{3,}", "\n\n").strip();
    }
}
