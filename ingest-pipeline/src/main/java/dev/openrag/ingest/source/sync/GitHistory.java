package dev.openrag.ingest.source.sync;

import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.eclipse.jgit.lib.AnyObjectId;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevSort;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.AndTreeFilter;
import org.eclipse.jgit.treewalk.filter.PathFilterGroup;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

import dev.openrag.schemas.Metadata;

/**
 * Each synced file's last change in a git source, found in the history the clone holds
 * ({@code openrag.sources.git-history-depth} commits back from the head): the newest commit, walking every parent
 * (not only the first) in commit-time order, that brought the file's exact blob to its path, that is whose blob there
 * is the head's and is no parent's. A merge that took the file from one side is not that commit: the side's commit is,
 * with its author. A rename (the same blob at a new path) is a change at the new path; a mode change alone is not.
 *
 * <p>The fields a file's document then carries are that commit's: {@code commit} (its id), {@code modified} (its
 * commit time) and {@code author} (its author's name). Every blob at a path in that commit and in the head is the
 * same, so the text read at the head is this file at {@code commit} too. A file whose last change lies past the
 * fetched history (it is unchanged since the oldest commit fetched, a shallow boundary) gets no {@code modified} and
 * no {@code author}: the only commits at hand are later ones, whose time and author would be a guess (a format's own,
 * Tika's, may fill them then). Its {@code commit} is the synced head, the version its text was read at, so that every
 * document of a git source names a commit holding exactly its text; that {@code modified} is absent tells the two
 * apart. A repository whose whole history was fetched (fewer commits than the depth) has no such file.
 *
 * <p>Cost: one walk for all the paths asked, commits and trees only (blob ids come from the trees, no blob is read);
 * subtrees equal to every parent's are skipped, and the walk stops once every path has its commit.
 */
final class GitHistory {

    private GitHistory() {
    }

    /**
     * The source fields of each path's last change ({@code commit}, and {@code modified} and {@code author} when it
     * lies within the fetched history), for {@code blobs}: the paths asked, each with the blob the head holds there.
     */
    static Map<String, Map<String, Object>> lastChanges(Repository repository, AnyObjectId head, Map<String, ObjectId> blobs)
            throws IOException {
        Map<String, ObjectId> open = new HashMap<>(blobs); // the paths whose commit is not found yet
        Map<String, Map<String, Object>> fields = new HashMap<>();
        try (RevWalk walk = new RevWalk(repository); TreeWalk diff = new TreeWalk(repository, walk.getObjectReader())) {
            Set<ObjectId> boundary = walk.getObjectReader().getShallowCommits();
            walk.sort(RevSort.COMMIT_TIME_DESC);
            RevCommit headCommit = walk.parseCommit(head);
            walk.markStart(headCommit);
            diff.setRecursive(true);
            TreeFilter paths = open.isEmpty() ? null : PathFilterGroup.createFromStrings(open.keySet());
            int filtered = open.size();
            for (RevCommit commit = open.isEmpty() ? null : walk.next(); commit != null; commit = open.isEmpty() ? null : walk.next()) {
                if (boundary.contains(commit)) {
                    continue; // its parents were not fetched (a shallow boundary): what it holds may be older than it
                }
                diff.reset();
                diff.addTree(commit.getTree());
                for (RevCommit parent : commit.getParents()) {
                    walk.parseHeaders(parent);
                    diff.addTree(parent.getTree());
                }
                // a root commit brought every file it holds; any other only those that differ from a parent
                diff.setFilter(commit.getParentCount() == 0 ? paths : AndTreeFilter.create(paths, TreeFilter.ANY_DIFF));
                while (diff.next()) {
                    ObjectId blob = open.get(diff.getPathString());
                    if (blob != null && blob.equals(diff.getObjectId(0)) && !inAParent(diff, blob)) {
                        open.remove(diff.getPathString());
                        fields.put(diff.getPathString(), of(commit));
                    }
                }
                if (!open.isEmpty() && open.size() <= filtered / 2) { // a smaller filter skips more of the trees
                    paths = PathFilterGroup.createFromStrings(open.keySet());
                    filtered = open.size();
                }
            }
            for (String path : open.keySet()) {
                fields.put(path, Map.of("commit", headCommit.name())); // past the fetched history: no time or author guessed
            }
        }
        return fields;
    }

    private static boolean inAParent(TreeWalk diff, ObjectId blob) {
        for (int parent = 1; parent < diff.getTreeCount(); parent++) {
            if (blob.equals(diff.getObjectId(parent))) {
                return true;
            }
        }
        return false;
    }

    /** A commit's source fields: its id, its commit time as {@code modified}, its author's name (when it has a usable one). */
    private static Map<String, Object> of(RevCommit commit) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("commit", commit.name());
        fields.put("modified", Instant.ofEpochSecond(commit.getCommitTime()).toString());
        PersonIdent author = commit.getAuthorIdent();
        String name = author == null ? null : author.getName();
        if (name != null && !name.isBlank() && name.length() <= Metadata.MAX_VALUE_LENGTH) {
            fields.put("author", name.strip());
        }
        return Map.copyOf(fields);
    }
}
