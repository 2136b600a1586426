package dev.openrag.ingest.source;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The time a document's version or delete is accepted (epoch milliseconds), fixed once here: the record
 * timestamp of an arrival (parsing fixes it as the version's {@code arrivedAt}) and a delete's
 * {@code deletedAt}. Every store orders a document's versions and deletes by these times, and a delete
 * wins a tie, so two calls on one document in the same millisecond are told apart here: each is stamped
 * after the document's previous one, in the order they were accepted (a delete then a re-upload ends with
 * the re-upload). Other documents keep the wall clock's time (a burst of a sync's files does not run the
 * clock ahead), and no stamp is earlier than one given before (the wall clock stepping back).
 */
@ApplicationScoped
public class AcceptanceClock {

    private final LongSupplier wallClock;
    /** Each document's last stamp, while the next could meet it; oldest first. */
    private final LinkedHashMap<String, Long> recent = new LinkedHashMap<>();
    private long latest;

    @Inject
    public AcceptanceClock() {
        this(System::currentTimeMillis);
    }

    /** With another wall clock (tests). */
    public AcceptanceClock(LongSupplier wallClock) {
        this.wallClock = wallClock;
    }

    /** The acceptance time of a call on the document now: after any earlier stamp of the same document. */
    public synchronized long stamp(String collection, String documentId) {
        long now = Math.max(wallClock.getAsLong(), latest);
        for (Iterator<Map.Entry<String, Long>> oldest = recent.entrySet().iterator(); oldest.hasNext(); ) {
            if (oldest.next().getValue() >= now) {
                break;
            }
            oldest.remove(); // an earlier millisecond: the next stamp cannot meet it
        }
        String key = collection + "/" + documentId;
        Long previous = recent.remove(key);
        long stamp = previous != null && previous >= now ? previous + 1 : now;
        recent.put(key, stamp);
        latest = now;
        return stamp;
    }
}
