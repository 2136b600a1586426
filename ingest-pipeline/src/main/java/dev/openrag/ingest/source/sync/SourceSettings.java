package dev.openrag.ingest.source.sync;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** {@code openrag.sources.*} (env: OPENRAG_SOURCES_...): folders and git repositories kept in sync. */
@ConfigMapping(prefix = "openrag.sources")
public interface SourceSettings {

    /**
     * The folders under which folder sources (and local git repositories) may lie, comma-separated. None by default: a
     * server reads no folder a request names until its operator says which; {@code ./openrag up} sets the user's home,
     * the temp folder and the folder around the checkout. The data folder is never readable, whatever the roots.
     */
    Optional<List<String>> allowedRoots();

    /** Where git sources are cloned (one bare clone per source). */
    @WithDefault("${user.home}/.openrag/sources")
    String dir();

    /** Files one source may hold: a run that finds more stops with the reason, before it changes anything. */
    @WithDefault("100000")
    int maxFiles();

    /**
     * The largest file a source syncs, in bytes (100 MB): a larger one is refused with its size and the limit, from its
     * size attribute before it is read and while it streams (a file that grows past it), and the rest of the run goes on.
     */
    @WithDefault("104857600")
    long maxFileBytes();

    /** The most a git source's clone may take on disk, in bytes (1 GiB): a clone or fetch past it stops and its run fails. */
    @WithDefault("1073741824")
    long maxCloneBytes();

    /**
     * How many commits of a git source's history its clone fetches back from the head (500; at least 1): each synced
     * file's {@code commit}, {@code modified} and {@code author} are those of its last change found there. A file
     * unchanged over all of them gets the head as {@code commit} and no {@code modified} or {@code author}. A deeper
     * history makes a larger clone, still bounded by {@code max-clone-bytes}.
     */
    @WithDefault("500")
    int gitHistoryDepth();

    /** How long a source stays with its instance without a renewal (its watch and schedule move on after this). */
    @WithDefault("PT30S")
    Duration lease();

    /** How often an instance renews its sources' leases, takes over orphans and makes the runs asked of it. */
    @WithDefault("10s")
    String leaseRenewal();

    /** Quiet time after the last file-system event before a watched folder syncs. */
    @WithDefault("PT1S")
    Duration watchDebounce();

    /** The longest a git clone or fetch may take. */
    @WithDefault("PT5M")
    Duration gitTimeout();
}
