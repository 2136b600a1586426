package dev.openrag.ingest.stage.chunk;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Section-aware chunking for Markdown (and for HTML, DOCX, EPUB, which the parser turns into
 * Markdown-style headings). Each chunk stays inside one section and carries its heading path;
 * fenced code blocks are never split; sections smaller than {@code min} are merged with the next
 * section under the same parent; larger ones are packed by paragraph up to {@code target}, and
 * a paragraph above {@code max} is split recursively.
 */
final class MarkdownChunker implements Chunker {

    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");

    private final int min;
    private final int target;
    private final int max;

    MarkdownChunker(int min, int target, int max) {
        this.min = min;
        this.target = target;
        this.max = max;
    }

    @Override
    public List<TextRange> chunk(String text) {
        List<TextRange> chunks = new ArrayList<>();
        List<TextRange> pending = new ArrayList<>(); // small sections waiting to be merged
        for (Section section : sections(text)) {
            int length = section.end - section.start;
            if (length > target) {
                flush(pending, chunks);
                chunks.addAll(RecursiveSplitter.pack(blocks(text, section), target, 0));
                continue;
            }
            if (!pending.isEmpty() && (!sameParent(pending.get(0).headingPath(), section.path)
                    || section.end - pending.get(0).start() > target)) {
                flush(pending, chunks);
            }
            pending.add(new TextRange(section.start, section.end, section.path));
            if (section.end - pending.get(0).start() >= min) {
                flush(pending, chunks);
            }
        }
        flush(pending, chunks);
        return chunks;
    }

    /** Merged pending sections become one chunk under the heading path they share. */
    private static void flush(List<TextRange> pending, List<TextRange> chunks) {
        if (pending.isEmpty()) {
            return;
        }
        List<String> shared = pending.get(0).headingPath();
        for (TextRange section : pending) {
            int common = 0;
            while (common < Math.min(shared.size(), section.headingPath().size())
                    && shared.get(common).equals(section.headingPath().get(common))) {
                common++;
            }
            shared = shared.subList(0, common);
        }
        chunks.add(new TextRange(pending.get(0).start(), pending.get(pending.size() - 1).end(), List.copyOf(shared)));
        pending.clear();
    }

    private static boolean sameParent(List<String> a, List<String> b) {
        return a.size() == b.size() && a.subList(0, Math.max(0, a.size() - 1)).equals(b.subList(0, Math.max(0, b.size() - 1)));
    }

    private record Section(int start, int end, List<String> path) {
    }

    /** The text cut at each heading, with the path of headings above it. Headings inside fences don't count. */
    private static List<Section> sections(String text) {
        List<Section> sections = new ArrayList<>();
        List<String> path = new ArrayList<>();
        List<Integer> levels = new ArrayList<>();
        int sectionStart = 0;
        List<String> sectionPath = List.of();
        boolean inFence = false;
        int lineStart = 0;
        while (lineStart < text.length()) {
            int lineEnd = text.indexOf('\n', lineStart);
            lineEnd = lineEnd < 0 ? text.length() : lineEnd;
            String line = text.substring(lineStart, lineEnd);
            if (FENCE.matcher(line).find()) {
                inFence = !inFence;
            } else if (!inFence) {
                Matcher heading = HEADING.matcher(line);
                if (heading.matches()) {
                    if (lineStart > sectionStart && !text.substring(sectionStart, lineStart).isBlank()) {
                        sections.add(new Section(sectionStart, lineStart, sectionPath));
                    }
                    int level = heading.group(1).length();
                    while (!levels.isEmpty() && levels.get(levels.size() - 1) >= level) {
                        levels.remove(levels.size() - 1);
                        path.remove(path.size() - 1);
                    }
                    levels.add(level);
                    path.add(heading.group(2).strip());
                    sectionStart = lineStart;
                    sectionPath = List.copyOf(path);
                }
            }
            lineStart = lineEnd + 1;
        }
        if (sectionStart < text.length() && !text.substring(sectionStart).isBlank()) {
            sections.add(new Section(sectionStart, text.length(), sectionPath));
        }
        return sections;
    }

    /** Paragraphs and whole fenced blocks of a section; pieces above {@code max} split recursively (never fences). */
    private List<TextRange> blocks(String text, Section section) {
        List<TextRange> blocks = new ArrayList<>();
        int blockStart = section.start;
        boolean inFence = false;
        int lineStart = section.start;
        while (lineStart < section.end) {
            int lineEnd = text.indexOf('\n', lineStart);
            lineEnd = lineEnd < 0 || lineEnd >= section.end ? section.end : lineEnd + 1;
            String line = text.substring(lineStart, lineEnd);
            if (FENCE.matcher(line).find()) {
                if (!inFence && lineStart > blockStart) {
                    addParagraph(text, blockStart, lineStart, section.path, blocks);
                    blockStart = lineStart;
                }
                inFence = !inFence;
                if (!inFence) {
                    blocks.add(new TextRange(blockStart, lineEnd, section.path)); // the whole fence, whatever its size
                    blockStart = lineEnd;
                }
            } else if (!inFence && line.isBlank() && lineEnd > blockStart) {
                addParagraph(text, blockStart, lineEnd, section.path, blocks);
                blockStart = lineEnd;
            }
            lineStart = lineEnd;
        }
        if (blockStart < section.end) {
            addParagraph(text, blockStart, section.end, section.path, blocks);
        }
        return blocks;
    }

    private void addParagraph(String text, int start, int end, List<String> path, List<TextRange> blocks) {
        if (end - start <= max) {
            blocks.add(new TextRange(start, end, path));
        } else {
            blocks.addAll(RecursiveSplitter.pieces(text, start, end, target, path));
        }
    }
}
