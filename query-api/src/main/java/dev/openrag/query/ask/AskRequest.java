package dev.openrag.query.ask;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.databind.JsonNode;

import dev.openrag.query.search.SearchRequest;

/** {@code POST /api/ask} body: k sources (1..20, default 5) from a collection or several; scopes, filter and collections as in search. */
public record AskRequest(String question, Integer k, String collection, List<String> scopes,
                         @Schema(implementation = Object.class, description = SearchRequest.FILTER_DOC) JsonNode filter,
                         @Schema(description = SearchRequest.COLLECTIONS_DOC) @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
                         List<String> collections) {

    public AskRequest(String question, Integer k, String collection, List<String> scopes) {
        this(question, k, collection, scopes, null, null);
    }
}
