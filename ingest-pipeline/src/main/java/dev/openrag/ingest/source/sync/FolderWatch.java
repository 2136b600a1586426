package dev.openrag.ingest.source.sync;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

/**
 * Syncs a folder soon after it changes: file-system events on the folder and every folder under it (hidden ones
 * aside; new ones are watched as they appear), debounced ({@code openrag.sources.watch-debounce}, 1 s of quiet).
 * When the folder itself goes (deleted, or its drive unmounted) the watch syncs once, which fails with the reason
 * and deletes nothing, then looks for the folder every 2 s and syncs again when it is back.
 */
final class FolderWatch implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(FolderWatch.class);
    private static final long ABSENT_POLL_MILLIS = 2000;

    private final Path root;
    private final long debounceMillis;
    private final Runnable sync;
    private final Thread thread;
    private volatile WatchService watcher;
    private volatile boolean closed;

    FolderWatch(Path root, Duration debounce, Runnable sync) {
        this.root = root;
        this.debounceMillis = Math.max(50, debounce.toMillis());
        this.sync = sync;
        this.thread = Thread.ofPlatform().daemon().name("watch-" + root.getFileName()).start(this::watch);
    }

    private void watch() {
        boolean present = true;
        while (!closed) {
            try (WatchService service = FileSystems.getDefault().newWatchService()) {
                watcher = service;
                if (!Files.isDirectory(root)) {
                    if (present) {
                        LOG.warnf("watched folder %s is gone (deleted or unmounted): its documents stay until it is back", root);
                        sync.run(); // fails with the reason, on the source
                        present = false;
                    }
                    Thread.sleep(ABSENT_POLL_MILLIS);
                    continue;
                }
                if (!present) {
                    LOG.infof("watched folder %s is back", root);
                    present = true;
                    sync.run();
                }
                register(service, root);
                listen(service);
            } catch (InterruptedException | ClosedWatchServiceException e) {
                return;
            } catch (IOException e) {
                LOG.warnf("cannot watch %s (%s): trying again", root, e.getMessage());
                sleepQuietly();
            }
        }
    }

    /** Waits for events; after each burst (no event for the debounce time) syncs. Returns when the root's watch ends. */
    private void listen(WatchService service) throws InterruptedException, IOException {
        boolean pending = false;
        while (!closed) {
            WatchKey key = pending ? service.poll(debounceMillis, TimeUnit.MILLISECONDS) : service.poll(ABSENT_POLL_MILLIS, TimeUnit.MILLISECONDS);
            if (key == null) {
                if (pending) {
                    pending = false;
                    sync.run();
                }
                if (!Files.isDirectory(root)) {
                    return; // gone without an event reaching us
                }
                continue;
            }
            Path dir = (Path) key.watchable();
            for (var event : key.pollEvents()) {
                pending = true;
                if (event.kind() == StandardWatchEventKinds.ENTRY_CREATE && event.context() instanceof Path name) {
                    Path created = dir.resolve(name);
                    if (Files.isDirectory(created) && !name.toString().startsWith(".")) {
                        register(service, created);
                    }
                }
            }
            if (!key.reset() && dir.equals(root)) {
                if (pending) {
                    sync.run();
                }
                return; // the root went: the outer loop sees it gone
            }
        }
    }

    private static void register(WatchService service, Path start) throws IOException {
        Files.walkFileTree(start, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                if (!dir.equals(start) && dir.getFileName().toString().startsWith(".")) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                dir.register(service, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_DELETE,
                        StandardWatchEventKinds.ENTRY_MODIFY);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private void sleepQuietly() {
        try {
            Thread.sleep(ABSENT_POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        WatchService service = watcher;
        if (service != null) {
            try {
                service.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
