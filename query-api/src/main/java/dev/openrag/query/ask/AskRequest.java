package dev.openrag.query.ask;

import java.util.List;

/** {@code POST /api/ask} body: k sources (1..20, default 5) from a collection; scopes as in search. */
public record AskRequest(String question, Integer k, String collection, List<String> scopes) {
}
