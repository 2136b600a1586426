package dev.openrag.memory.neo4j;

import dev.openrag.memory.Message;

/**
 * An entry of one ranked list of a memory search before the memories are read: what it is, its id,
 * its score in that list; a message comes whole (a conversation has few). Only the final k are read whole.
 */
record Candidate(String kind, String id, double score, Message message) {

    String key() {
        return kind + ":" + id;
    }
}
