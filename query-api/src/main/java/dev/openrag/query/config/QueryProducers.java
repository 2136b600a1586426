package dev.openrag.query.config;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.neo4j.driver.Driver;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.knowledge.neo4j.Neo4jDocumentTexts;
import dev.openrag.knowledge.neo4j.Neo4jFeedbackStore;
import dev.openrag.knowledge.neo4j.Neo4jGraphRetriever;
import dev.openrag.knowledge.neo4j.Neo4jKnowledgeBrowser;
import dev.openrag.knowledge.neo4j.Neo4jSearchState;
import dev.openrag.knowledge.neo4j.Neo4jSummaryIndex;
import dev.openrag.knowledge.neo4j.Neo4jVectorIndex;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.DocumentTexts;
import dev.openrag.knowledge.port.FeedbackStore;
import dev.openrag.knowledge.port.GraphRetriever;
import dev.openrag.knowledge.port.MetadataFacets;
import dev.openrag.knowledge.opensearch.OpenSearchFacets;
import dev.openrag.knowledge.port.KnowledgeBrowser;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.knowledge.port.Reranker;
import dev.openrag.knowledge.port.SearchState;
import dev.openrag.knowledge.rerank.IdentifierReranker;
import dev.openrag.knowledge.runtime.DeadlineKnowledgeBrowser;
import dev.openrag.knowledge.runtime.ReadDeadline;
import dev.openrag.knowledge.port.SummaryIndex;
import dev.openrag.knowledge.port.ChunkSubjects;
import dev.openrag.knowledge.port.EngineUnavailableException;
import dev.openrag.knowledge.neo4j.Neo4jChunkSubjects;

/** The retrieval adapters of this app (embedder and vector backend: knowledge-store's shared producers). */
public class QueryProducers {

    @Produces
    @Singleton
    LexicalIndex lexicalIndex(OpenSearchClient client) {
        return new OpenSearchLexicalIndex(client, false);
    }

    @Produces
    @Singleton
    MetadataFacets metadataFacets(OpenSearchClient client) {
        return new OpenSearchFacets(client);
    }

    @Produces
    @Singleton
    GraphRetriever graphRetriever(Driver driver) {
        return new Neo4jGraphRetriever(driver);
    }

    /** {@code openrag.search.reranker}: identifiers (the local CPU reranker), the only one so far. */
    @Produces
    @Singleton
    Reranker reranker(@ConfigProperty(name = "openrag.search.reranker", defaultValue = IdentifierReranker.NAME) String name) {
        if (!IdentifierReranker.NAME.equals(name)) {
            throw new IllegalArgumentException("openrag.search.reranker must be " + IdentifierReranker.NAME + ", not '" + name + "'");
        }
        return new IdentifierReranker();
    }

    @Produces
    @Singleton
    SummaryIndex summaryIndex(Driver driver, @ConfigProperty(name = "openrag.vectors.neo4j.search-breadth",
            defaultValue = "" + Neo4jVectorIndex.SEARCH_BREADTH) int searchBreadth) {
        return new Neo4jSummaryIndex(driver, searchBreadth);
    }

    @Produces
    @Singleton
    FeedbackStore feedbackStore(Driver driver) {
        return new Neo4jFeedbackStore(driver);
    }

    @Produces
    @Singleton
    SearchState searchState(Driver driver) {
        return new Neo4jSearchState(driver);
    }

    @Produces
    @Singleton
    ChunkSubjects chunkSubjects(Driver driver, ReadDeadline deadline) {
        ChunkSubjects store = new Neo4jChunkSubjects(driver);
        return chunkIds -> deadline.call(EngineUnavailableException.NEO4J, () -> store.of(chunkIds));
    }

    @Produces
    @Singleton
    DocumentTexts documentTexts(Driver driver) {
        return new Neo4jDocumentTexts(driver);
    }

    @Produces
    @Singleton
    KnowledgeBrowser knowledgeBrowser(Driver driver, ReadDeadline deadline) {
        return new DeadlineKnowledgeBrowser(new Neo4jKnowledgeBrowser(driver), deadline);
    }
}
