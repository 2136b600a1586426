package dev.openrag.knowledge.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Light, language-agnostic reading of source code: which language a text is, where its
 * declarations are and which declarations enclose a position. Used by the code-aware chunker,
 * the structural contextualizer and the rule-based graph extractor. Regular expressions, not
 * parsers: good enough to name things, never a reason to fail.
 */
public final class SourceCode {

    /** A declaration: its keyword ("fn", "class", "impl"), its name, indentation and offsets. */
    public record Declaration(String kind, String name, int indent, int start, int lineEnd) {
        public String label() {
            return kind + " " + name;
        }
    }

    private static final Map<String, String> EXTENSIONS = Map.ofEntries(
            Map.entry("rs", "rust"), Map.entry("py", "python"), Map.entry("java", "java"), Map.entry("kt", "kotlin"),
            Map.entry("go", "go"), Map.entry("js", "javascript"), Map.entry("mjs", "javascript"), Map.entry("ts", "typescript"),
            Map.entry("tsx", "typescript"), Map.entry("jsx", "javascript"), Map.entry("c", "c"), Map.entry("h", "c"),
            Map.entry("cc", "cpp"), Map.entry("cpp", "cpp"), Map.entry("hpp", "cpp"), Map.entry("cs", "csharp"),
            Map.entry("rb", "ruby"), Map.entry("scala", "scala"), Map.entry("swift", "swift"), Map.entry("php", "php"),
            Map.entry("sh", "shell"));

    private static final String MODIFIERS = "(?:(?:pub(?:\\([^)]*\\))?|export|public|private|protected|internal|static|"
            + "async|unsafe|extern(?:\\s+\"C\")?|default|abstract|final|override|inline|const|virtual|sealed|open|data)\\s+)*";
    private static final Pattern KEYWORD_DECLARATION = Pattern.compile("^([ \\t]*)" + MODIFIERS
            + "(fn|struct|enum|trait|union|mod|type|class|interface|def|func|function|object|record|namespace|module|macro_rules!)"
            + "\\s+([A-Za-z_][\\w]*)", Pattern.MULTILINE);
    private static final Pattern IMPL = Pattern.compile("^([ \\t]*)(?:unsafe\\s+)?impl(?:<[^{]*?>)?\\s+([\\w:]+)(?:<[^{]*?>)?"
            + "(?:\\s+for\\s+([\\w:]+))?", Pattern.MULTILINE);
    /**
     * Methods of C-family languages: a return type, a name and a parameter list at the end of a
     * line. The name may be qualified ({@code BasicConfigurator::configure}): C++ defines most
     * methods outside their class, and the class is what a question names. One line only, or
     * a {@code public:} label would read as the return type of the constructor below it.
     */
    private static final Pattern C_FAMILY_METHOD = Pattern.compile("^([ \\t]*)(?:[\\w<>\\[\\],.?*&:]+[ \\t]+)+"
            + "([A-Za-z_]\\w*(?:::~?[A-Za-z_]\\w*)*)\\s*\\([^;{}]*\\)\\s*(?:const\\s*)?(?:noexcept\\s*)?(?:override\\s*)?"
            + "(?:throws [\\w., ]+)?\\s*\\{?\\s*$", Pattern.MULTILINE);
    /** Lines at a declaration's own indentation that do not close its block. */
    private static final Pattern BLOCK_CONTINUES = Pattern.compile("\\s*(\\{|(public|private|protected)\\s*:)\\s*");
    private static final Pattern NOT_A_METHOD = Pattern.compile("^(if|for|while|switch|return|catch|new|else|do|try)$");

    private SourceCode() {
    }

    /** The language of a document, from its uri's extension, its media type, or its content; null for prose. */
    public static String language(String uri, String mediaType, String text) {
        if (uri != null) {
            String name = uri.substring(uri.lastIndexOf('/') + 1);
            int dot = name.lastIndexOf('.');
            if (dot > 0) {
                String language = EXTENSIONS.get(name.substring(dot + 1).toLowerCase(Locale.ROOT));
                if (language != null) {
                    return language;
                }
            }
        }
        if (mediaType != null && (mediaType.startsWith("text/markdown") || mediaType.startsWith("text/html"))) {
            return null;
        }
        return guessFromContent(text);
    }

    private static String guessFromContent(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String sample = text.length() > 20_000 ? text.substring(0, 20_000) : text;
        int rust = count(sample, "(?m)^\\s*(pub(\\([^)]*\\))?\\s+)?(fn|impl|struct|enum|trait|use|mod)\\b|::|->|&self|&mut ");
        int python = count(sample, "(?m)^\\s*(def|class)\\s+\\w+.*:\\s*$|(?m)^\\s*(import|from)\\s+\\w+|self\\.");
        int cFamily = count(sample, "(?m)^\\s*(public|private|protected|#include|package|import)\\b|;\\s*$");
        int go = count(sample, "(?m)^\\s*(func|package)\\s+|:=");
        int javascript = count(sample, "(?m)^\\s*(const|let|function|export)\\s+|=>");
        int best = Math.max(Math.max(rust, python), Math.max(Math.max(cFamily, go), javascript));
        int lines = (int) sample.lines().count();
        if (best < Math.max(3, lines / 25)) {
            return null;
        }
        if (best == rust) {
            return "rust";
        }
        if (best == python) {
            return "python";
        }
        if (best == go) {
            return "go";
        }
        if (best == javascript) {
            return "javascript";
        }
        return sample.contains("#include") ? "c" : "java";
    }

    private static int count(String text, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        int count = 0;
        while (matcher.find()) {
            count++;
        }
        return count;
    }

    /** Every declaration in the text, in order. */
    public static List<Declaration> declarations(String text, String language) {
        List<Declaration> found = new ArrayList<>();
        addMatches(found, KEYWORD_DECLARATION.matcher(text), m -> new Declaration(m.group(2), m.group(3),
                indent(m.group(1)), m.start(), lineEnd(text, m.start())));
        addMatches(found, IMPL.matcher(text), m -> new Declaration("impl",
                m.group(3) == null ? simpleName(m.group(2)) : simpleName(m.group(2)) + " for " + simpleName(m.group(3)),
                indent(m.group(1)), m.start(), lineEnd(text, m.start())));
        if (language != null && List.of("java", "kotlin", "c", "cpp", "csharp", "scala").contains(language)) {
            addMatches(found, C_FAMILY_METHOD.matcher(text), m -> NOT_A_METHOD.matcher(simpleName(m.group(2))).matches() ? null
                    : new Declaration("method", m.group(2), indent(m.group(1)), m.start(), lineEnd(text, m.start())));
        }
        found.sort((a, b) -> Integer.compare(a.start(), b.start()));
        List<Declaration> distinct = new ArrayList<>();
        for (Declaration declaration : found) {
            if (distinct.isEmpty() || distinct.get(distinct.size() - 1).start() != declaration.start()) {
                distinct.add(declaration);
            }
        }
        return distinct;
    }

    /**
     * The declarations whose block is still open at {@code offset}, outermost first. A block
     * closes at the next non-blank line indented no deeper than its declaration, except a lone
     * opening brace (Allman style) and a C++ access label ({@code public:}), which open or continue it.
     */
    public static List<Declaration> enclosing(String text, List<Declaration> declarations, int offset) {
        List<Declaration> stack = new ArrayList<>();
        int next = 0;
        int lineStart = 0;
        while (lineStart < Math.min(offset, text.length())) {
            int lineEnd = lineEnd(text, lineStart);
            String line = text.substring(lineStart, lineEnd);
            if (!line.isBlank() && !BLOCK_CONTINUES.matcher(line).matches()) {
                int indent = indent(line);
                stack.removeIf(open -> open.indent() >= indent);
                while (next < declarations.size() && declarations.get(next).start() < lineEnd) {
                    if (declarations.get(next).start() >= lineStart) {
                        stack.add(declarations.get(next));
                    }
                    next++;
                }
            }
            lineStart = lineEnd + 1;
        }
        return stack;
    }

    /** Declarations that start inside [start, end). */
    public static List<Declaration> within(List<Declaration> declarations, int start, int end) {
        return declarations.stream().filter(d -> d.start() >= start && d.start() < end).toList();
    }

    private interface MatchMapper {
        Declaration map(Matcher matcher);
    }

    private static void addMatches(List<Declaration> into, Matcher matcher, MatchMapper mapper) {
        while (matcher.find()) {
            Declaration declaration = mapper.map(matcher);
            if (declaration != null) {
                into.add(declaration);
            }
        }
    }

    private static String simpleName(String path) {
        return path.substring(path.lastIndexOf(':') + 1);
    }

    private static int indent(String line) {
        int width = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == ' ') {
                width++;
            } else if (c == '\t') {
                width += 4;
            } else {
                break;
            }
        }
        return width;
    }

    private static int lineEnd(String text, int from) {
        int end = text.indexOf('\n', from);
        return end < 0 ? text.length() : end;
    }
}
