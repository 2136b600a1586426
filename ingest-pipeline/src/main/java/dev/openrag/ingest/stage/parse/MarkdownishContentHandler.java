package dev.openrag.ingest.stage.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.xml.sax.Attributes;
import org.xml.sax.helpers.DefaultHandler;

import dev.openrag.schemas.Page;

/**
 * Turns Tika's XHTML (from HTML, PDF, DOCX, EPUB, ...) into plain text with Markdown-style
 * headings ({@code ## Title}), so the section-aware chunker sees every format's structure the
 * same way. Pages (Tika's {@code <div class="page">}, from PDF) are kept as ranges of the final text:
 * a private-use marker goes before each page's first character and is taken out, with its position,
 * after the whitespace is tidied.
 */
final class MarkdownishContentHandler extends DefaultHandler {

    private static final Set<String> BLOCKS = Set.of("p", "div", "li", "tr", "br", "pre", "blockquote", "section",
            "article", "table", "ul", "ol", "dt", "dd");
    private static final Set<String> SKIPPED = Set.of("script", "style", "head", "title");

    /** Marks where a page's text begins; never in extracted text (a private-use character, dropped on the way in). */
    private static final char PAGE_MARK = '\uE000';

    private final StringBuilder text = new StringBuilder();
    private boolean pageStarting;
    private int pagesSeen;
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
            if (name.equals("div") && "page".equals(attributes.getValue("class"))) {
                if (pageStarting) {
                    text.append(PAGE_MARK); // the page before had no text: it still counts
                }
                pageStarting = true;
                pagesSeen++;
            }
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
            for (int i = start; i < start + length; i++) {
                if (pageStarting && !Character.isWhitespace(ch[i])) {
                    text.append(PAGE_MARK);
                    pageStarting = false;
                }
                if (ch[i] != PAGE_MARK) {
                    text.append(ch[i]);
                }
            }
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

    /** The text and its pages (empty unless the format has pages). */
    record Extracted(String text, List<Page> pages) {
    }

    Extracted extracted() {
        if (pageStarting) {
            text.append(PAGE_MARK);
            pageStarting = false;
        }
        String tidied = text.toString().replaceAll("[ \\t\\x0B\\f\\r]+\\n", "\n").replaceAll("\\n{3,}", "\n\n").strip();
        StringBuilder plain = new StringBuilder(tidied.length());
        List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < tidied.length(); i++) {
            if (tidied.charAt(i) == PAGE_MARK) {
                starts.add(plain.length());
            } else {
                plain.append(tidied.charAt(i));
            }
        }
        List<Page> pages = new ArrayList<>();
        if (pagesSeen > 0) {
            for (int i = 0; i < starts.size(); i++) {
                int start = i == 0 ? 0 : starts.get(i);
                int end = i + 1 < starts.size() ? starts.get(i + 1) : plain.length();
                pages.add(new Page(i + 1, start, end));
            }
        }
        return new Extracted(plain.toString(), pages);
    }

    String text() {
        return extracted().text();
    }
}
