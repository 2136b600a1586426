package dev.openrag.knowledge.port;

import java.util.Collection;
import java.util.Set;

/**
 * What chunks are about, for the things attached to a search's results elsewhere: a pinned memory about a
 * document or an entity ({@code (:Memory)-[:ABOUT]->}) comes back whenever a result belongs to that document or
 * mentions that entity. Knowledge-store owns chunks, documents and entities, so memory asks by these keys and
 * never joins chunks itself.
 */
public interface ChunkSubjects {

    /**
     * The {@code uid}s of the documents the chunks belong to and of the entities they mention (the keys a
     * memory's {@code about} resolves to); chunks that do not exist add nothing.
     */
    Set<String> of(Collection<String> chunkIds);
}
