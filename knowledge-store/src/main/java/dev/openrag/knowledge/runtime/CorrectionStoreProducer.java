package dev.openrag.knowledge.runtime;

import java.util.Collection;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.neo4j.driver.Driver;

import dev.openrag.knowledge.neo4j.Neo4jCorrectionStore;
import dev.openrag.knowledge.port.Correction;
import dev.openrag.knowledge.port.CorrectionStore;
import dev.openrag.knowledge.port.EngineUnavailableException;

/** Corrections live in Neo4j; their reads keep {@code openrag.read.timeout}, as memory's do (writes go through as they are). */
@ApplicationScoped
public class CorrectionStoreProducer {

    @Produces
    @Singleton
    CorrectionStore correctionStore(Driver driver, ReadDeadline deadline) {
        CorrectionStore store = new Neo4jCorrectionStore(driver);
        String engine = EngineUnavailableException.NEO4J;
        return new CorrectionStore() {
            @Override
            public Correction add(Correction correction, float[] embedding) {
                return store.add(correction, embedding);
            }

            @Override
            public List<Correction> corrections(String scope) {
                return deadline.call(engine, () -> store.corrections(scope));
            }

            @Override
            public boolean chunkExists(String chunkId) {
                return deadline.call(engine, () -> store.chunkExists(chunkId));
            }

            @Override
            public List<Correction> related(Collection<String> scopes, float[] query, double minSimilarity, Collection<String> chunkIds,
                                            int limit) {
                return deadline.call(engine, () -> store.related(scopes, query, minSimilarity, chunkIds, limit));
            }
        };
    }
}
