package dev.openrag.knowledge.contextual;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import dev.openrag.knowledge.port.Contextualizer;
import dev.openrag.knowledge.text.Notices;
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
    private static final int SYNOPSIS_LINES = 120;
    private static final Pattern COMMENT_PREFIX = Pattern.compile("^\\s*(//[/!]?|#!?|\\*+|/\\*+\\*?|--|\"\"\"|''')\\s?");
    /** C preprocessor lines, which a '#' comment prefix would otherwise take for comments. */
    private static final Pattern PREPROCESSOR = Pattern.compile("^#(include|pragma|if|ifdef|ifndef|define|undef|endif|else|elif|import)\\b");
    /** Lines before a file's first declaration that a file description may follow. */
    private static final Pattern PREAMBLE = Pattern.compile("^(package\\s|import\\s|use\\s|from\\s+\\S+\\s+import\\s|using\\s"
            + "|namespace\\s|extern\\s+\"C\"|mod\\s+\\w+;|[{}]\\s*$)");
    /** A preamble line that opens a list of names over several lines: {@code import (}, {@code use a::{}. */
    private static final Pattern IMPORT_LIST = Pattern.compile("^(import|from|use)\\s.*[({]$");
    /** A comment line that only draws a line: ####, ----, ====. */
    private static final Pattern RULE = Pattern.compile("[#*=\\-_/~+\\s]+");

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

    /**
     * What a document says it is about, on one line: its first comment block (code) or paragraph
     * (prose) that is not a licence or copyright notice, looked for past the preamble (package,
     * imports, includes, namespace). A licence header is the first block of most files of a project
     * and the same in each: as the synopsis it would put the same boilerplate into the context of
     * every chunk of every such file, for BM25 and the embedding alike, instead of what the file is.
     */
    static String synopsis(String text) {
        if (text == null) {
            return "";
        }
        List<String> block = new ArrayList<>();
        boolean inPreamble = false;
        boolean inImportList = false;
        for (String line : text.lines().limit(SYNOPSIS_LINES).toList()) {
            String trimmed = line.strip();
            boolean preprocessor = PREPROCESSOR.matcher(trimmed).find();
            boolean comment = !preprocessor && !trimmed.startsWith("#[") && COMMENT_PREFIX.matcher(line).find();
            if (inImportList) {
                inImportList = !(trimmed.startsWith(")") || trimmed.startsWith("}"));
            } else if (trimmed.isEmpty() || trimmed.startsWith("#!")) {
                if (!block.isEmpty() && !dropIfNotice(block)) {
                    break; // end of the first telling comment block or paragraph
                }
            } else if (comment) {
                String content = COMMENT_PREFIX.matcher(line).replaceFirst("").replace("*/", "").replaceAll("(\"\"\"|''')$", "").strip();
                if (!content.isEmpty() && !RULE.matcher(content).matches()) {
                    block.add(content);
                }
            } else if (preprocessor || inPreamble || looksLikeCode(trimmed)) {
                if (!block.isEmpty() && !dropIfNotice(block)) {
                    break; // code after a telling comment block
                }
                if (!preprocessor && !PREAMBLE.matcher(trimmed).find()) {
                    break; // the code proper starts: what we have (maybe nothing) is the synopsis
                }
                inPreamble = true;
                inImportList = IMPORT_LIST.matcher(trimmed).find();
            } else {
                block.add(trimmed.replaceFirst("^#+\\s*", "")); // prose, or a docstring's lines
            }
            String joined = String.join(" ", block);
            if (joined.length() >= SYNOPSIS_CHARS && !Notices.isNotice(joined)) {
                break;
            }
        }
        dropIfNotice(block);
        String result = String.join(" ", block).strip().replaceAll("\\s+", " ");
        return result.length() > SYNOPSIS_CHARS ? result.substring(0, SYNOPSIS_CHARS).strip() + "…" : result;
    }

    /** Empties a block that is a licence or copyright notice; true if it did. */
    private static boolean dropIfNotice(List<String> block) {
        if (Notices.isNotice(String.join(" ", block))) {
            block.clear();
            return true;
        }
        return false;
    }

    private static boolean looksLikeCode(String line) {
        return line.endsWith(";") || line.endsWith("{") || line.endsWith("}") || line.startsWith("#[")
                || PREAMBLE.matcher(line).find();
    }
}
