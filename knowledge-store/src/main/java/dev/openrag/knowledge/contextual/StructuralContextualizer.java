package dev.openrag.knowledge.contextual;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import dev.openrag.knowledge.port.Contextualizer;
import dev.openrag.knowledge.text.SourceCode;
import dev.openrag.knowledge.text.SourceCode.Declaration;
import dev.openrag.schemas.Chunk;

/**
 * The offline default contextualizer: a deterministic context built from the document's
 * structure, no LLM. It names the document (title/path and a one-line synopsis), the chunk's
 * section path, and for code the declarations that enclose the chunk and the names it defines —
 * the facts an LLM-written context mostly adds, and exactly what BM25 and the embedding miss when
 * a chunk is read out of its file.
 */
public final class StructuralContextualizer implements Contextualizer {

    public static final String NAME = "structural";
    private static final int SYNOPSIS_CHARS = 240;
    private static final Pattern COMMENT_PREFIX = Pattern.compile("^\\s*(//[/!]?|#!?|\\*+|/\\*+\\*?|--|\"\"\"|''')\\s?");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Contexts contextualize(String title, String sourceUri, String documentText, List<Chunk> chunks) {
        return Contexts.offline(contexts(title, sourceUri, documentText, chunks));
    }

    /** The contexts alone (the LLM contextualizer's fallback). */
    public List<String> contexts(String title, String sourceUri, String documentText, List<Chunk> chunks) {
        String language = SourceCode.language(sourceUri, null, documentText);
        List<Declaration> declarations = language == null ? List.of() : SourceCode.declarations(documentText, language);
        String header = header(title, sourceUri, language, documentText, declarations);
        List<String> contexts = new ArrayList<>(chunks.size());
        for (Chunk chunk : chunks) {
            StringBuilder context = new StringBuilder(header);
            if (chunk.headingPath() != null && !chunk.headingPath().isEmpty()) {
                context.append("\nSection: ").append(String.join(" > ", chunk.headingPath()));
            }
            if (!declarations.isEmpty()) {
                int start = Math.max(0, chunk.startOffset());
                int end = Math.max(start, chunk.endOffset());
                List<Declaration> enclosing = SourceCode.enclosing(documentText, declarations, start);
                if (!enclosing.isEmpty()) {
                    context.append("\nInside: ").append(String.join(" > ", enclosing.stream().map(Declaration::label).toList()));
                }
                Set<String> defined = new LinkedHashSet<>();
                SourceCode.within(declarations, start, end).forEach(d -> defined.add(d.label()));
                if (!defined.isEmpty()) {
                    context.append("\nDefines: ").append(String.join(", ", defined));
                }
            }
            context.append("\nPart ").append(chunk.index() + 1).append(" of ").append(chunks.size()).append('.');
            contexts.add(context.toString());
        }
        return contexts;
    }

    private static String header(String title, String sourceUri, String language, String text, List<Declaration> declarations) {
        StringBuilder header = new StringBuilder();
        String name = title != null && !title.isBlank() ? title : sourceUri;
        header.append(language == null ? "Document: " : "Source file: ").append(name == null ? "untitled" : name);
        if (language != null) {
            header.append(" (").append(language).append(')');
        }
        String synopsis = synopsis(text);
        if (!synopsis.isEmpty()) {
            header.append("\nAbout: ").append(synopsis);
        }
        List<String> topLevel = declarations.stream().filter(d -> d.indent() == 0)
                .map(Declaration::label).distinct().limit(8).toList();
        if (!topLevel.isEmpty()) {
            header.append("\nDeclares: ").append(String.join(", ", topLevel));
        }
        return header.toString();
    }

    /** The leading comment block (code) or the first paragraph (prose), on one line. */
    static String synopsis(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder synopsis = new StringBuilder();
        for (String line : text.lines().limit(60).toList()) {
            String trimmed = line.strip();
            boolean comment = COMMENT_PREFIX.matcher(line).find() && !trimmed.startsWith("#[") && !trimmed.startsWith("#include");
            if (trimmed.isEmpty() || trimmed.startsWith("#!")) {
                if (synopsis.length() > 0) {
                    break; // end of the first comment block or paragraph
                }
            } else if (comment) {
                String content = COMMENT_PREFIX.matcher(line).replaceFirst("").replace("*/", "").strip();
                if (!content.isEmpty()) {
                    synopsis.append(content).append(' ');
                }
            } else if (looksLikeCode(trimmed)) {
                break; // code starts: what we have (maybe nothing) is the synopsis
            } else {
                synopsis.append(trimmed.replaceFirst("^#+\\s*", "")).append(' ');
            }
            if (synopsis.length() >= SYNOPSIS_CHARS) {
                break;
            }
        }
        String result = synopsis.toString().strip().replaceAll("\\s+", " ");
        return result.length() > SYNOPSIS_CHARS ? result.substring(0, SYNOPSIS_CHARS).strip() + "…" : result;
    }

    private static boolean looksLikeCode(String line) {
        return line.endsWith(";") || line.endsWith("{") || line.endsWith("}") || line.startsWith("use ")
                || line.startsWith("import ") || line.startsWith("package ") || line.startsWith("#[");
    }
}
