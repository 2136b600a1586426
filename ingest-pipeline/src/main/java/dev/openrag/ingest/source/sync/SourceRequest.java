package dev.openrag.ingest.source.sync;

import java.util.List;
import java.util.Map;

/**
 * {@code POST /api/sources}: a folder or git repository to keep a collection equal to.
 *
 * @param type     {@code folder} or {@code git}
 * @param location a folder's absolute path; a git repository's https URL or local path
 * @param include  globs a file's path (relative to the source, {@code /}-separated) must match one of; none: every file
 * @param exclude  globs that leave a file out; hidden files and folders (a name starting with '.') are always left out
 * @param branch   git only: the branch to follow (default: the remote's default branch)
 * @param schedule an interval ({@code 30m}) or cron expression: sync again on it
 * @param watch    folder only: sync within seconds of a change in the folder
 * @param metadata the caller's metadata for every document of the source (key → string, number, date or list of
 *                 strings; source field names are refused); a change of it alone updates the documents' metadata
 *                 at the next run, without embedding them again
 */
public record SourceRequest(String type, String location, String collection, List<String> include, List<String> exclude,
                            String branch, String schedule, Boolean watch, Map<String, Object> metadata) {

    public SourceRequest(String type, String location, String collection, List<String> include, List<String> exclude,
                         String branch, String schedule, Boolean watch) {
        this(type, location, collection, include, exclude, branch, schedule, watch, null);
    }

    public Map<String, Object> metadataOrNone() {
        return metadata == null ? Map.of() : metadata;
    }

    public static final String FOLDER = "folder";
    public static final String GIT = "git";

    public List<String> includeOrNone() {
        return include == null ? List.of() : include;
    }

    public List<String> excludeOrNone() {
        return exclude == null ? List.of() : exclude;
    }

    public boolean watching() {
        return Boolean.TRUE.equals(watch);
    }

    public boolean scheduled() {
        return schedule != null && !schedule.isBlank();
    }
}
