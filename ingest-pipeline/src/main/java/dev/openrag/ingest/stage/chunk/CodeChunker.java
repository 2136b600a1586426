package dev.openrag.ingest.stage.chunk;

import java.util.ArrayList;
import java.util.List;

import dev.openrag.knowledge.text.SourceCode;
import dev.openrag.knowledge.text.SourceCode.Declaration;

/**
 * Code-aware chunking: cuts at top-level declarations (each with the comments and attributes
 * right above it), packs small neighbours together up to {@code target}, and splits a
 * declaration longer than {@code max} at blank lines, then lines.
 */
final class CodeChunker implements Chunker {

    private final String language;
    private final int target;
    private final int max;

    CodeChunker(String language, int target, int max) {
        this.language = language;
        this.target = target;
        this.max = max;
    }

    @Override
    public List<TextRange> chunk(String text) {
        List<Integer> cuts = new ArrayList<>();
        cuts.add(0);
        int outerIndent = SourceCode.declarations(text, language).stream().mapToInt(Declaration::indent).min().orElse(0);
        for (Declaration declaration : SourceCode.declarations(text, language)) {
            if (declaration.indent() == outerIndent) {
                int cut = withLeadingComments(text, declaration.start());
                if (cut > cuts.get(cuts.size() - 1)) {
                    cuts.add(cut);
                }
            }
        }
        cuts.add(text.length());
        List<TextRange> pieces = new ArrayList<>();
        for (int i = 0; i + 1 < cuts.size(); i++) {
            int start = cuts.get(i);
            int end = cuts.get(i + 1);
            if (end - start <= max) {
                pieces.add(new TextRange(start, end, List.of()));
            } else {
                pieces.addAll(RecursiveSplitter.pieces(text, start, end, target, List.of()));
            }
        }
        return RecursiveSplitter.pack(pieces, target, 0);
    }

    /** Moves a cut up over the doc comments and attributes directly above a declaration. */
    private static int withLeadingComments(String text, int declarationStart) {
        int cut = declarationStart;
        while (cut > 0) {
            int previousLineStart = text.lastIndexOf('\n', cut - 2) + 1;
            String line = text.substring(previousLineStart, cut).strip();
            boolean attached = line.startsWith("//") || line.startsWith("#[") || line.startsWith("@")
                    || line.startsWith("/*") || line.startsWith("*") || line.startsWith("#") && !line.startsWith("#include");
            if (!attached || previousLineStart == cut) {
                break;
            }
            cut = previousLineStart;
        }
        return cut;
    }
}
