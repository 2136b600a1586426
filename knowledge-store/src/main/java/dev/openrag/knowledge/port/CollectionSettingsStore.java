package dev.openrag.knowledge.port;

import java.util.Optional;

import dev.openrag.knowledge.settings.CollectionSettings;

/** Where each collection's settings live, shared by every app instance. */
public interface CollectionSettingsStore {

    Optional<CollectionSettings> find(String collection);

    void save(String collection, CollectionSettings settings);
}
