package dev.openrag.ingest.source.sync;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.PatternSyntaxException;

import dev.openrag.knowledge.runtime.ApiException;

/**
 * Which of a source's files it syncs: hidden files and folders (a name starting with '.', as {@code .git}) never;
 * otherwise those matching an include glob (all when there is none) and no exclude glob. As in .gitignore, a glob
 * without '/' matches a file's name at any depth ({@code *.md}); one with '/' matches the whole relative path, and
 * a leading {@code **}{@code /} also matches at the top ({@code docs/**}, {@code **}{@code /*.java}).
 */
final class PathFilter {

    private final List<PathMatcher> include;
    private final List<PathMatcher> exclude;

    PathFilter(List<String> include, List<String> exclude) {
        this.include = matchers(include, "include");
        this.exclude = matchers(exclude, "exclude");
    }

    boolean accepts(String relativePath) {
        if (relativePath.isEmpty() || hidden(relativePath)) {
            return false;
        }
        return (include.isEmpty() || matches(include, relativePath)) && !matches(exclude, relativePath);
    }

    static boolean hidden(String relativePath) {
        for (String part : relativePath.split("/")) {
            if (part.startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(List<PathMatcher> matchers, String relativePath) {
        Path path = Path.of(relativePath);
        for (PathMatcher matcher : matchers) {
            if (matcher.matches(path)) {
                return true;
            }
        }
        return false;
    }

    private static List<PathMatcher> matchers(List<String> globs, String field) {
        List<PathMatcher> matchers = new ArrayList<>();
        for (String glob : globs) {
            if (glob == null || glob.isBlank()) {
                throw ApiException.badRequest("field '" + field + "' holds an empty glob");
            }
            try {
                PathMatcher whole = FileSystems.getDefault().getPathMatcher("glob:" + glob);
                if (!glob.contains("/")) {
                    matchers.add(path -> path.getFileName() != null && whole.matches(path.getFileName()));
                } else if (glob.startsWith("**/")) {
                    PathMatcher top = FileSystems.getDefault().getPathMatcher("glob:" + glob.substring(3));
                    matchers.add(path -> whole.matches(path) || top.matches(path));
                } else {
                    matchers.add(whole);
                }
            } catch (PatternSyntaxException e) {
                throw ApiException.badRequest("field '" + field + "' holds an invalid glob '" + glob + "': "
                        + e.getDescription());
            }
        }
        return matchers;
    }
}
