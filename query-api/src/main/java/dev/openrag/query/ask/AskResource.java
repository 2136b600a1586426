package dev.openrag.query.ask;

import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;

import org.eclipse.microprofile.openapi.annotations.Operation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.runtime.ApiException;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * {@code POST /api/ask}: JSON by default; with {@code Accept: text/event-stream} the answer streams
 * as {@code token} events ({"text": ...}), then one {@code sources} event (sources, memories,
 * corrections) and a final {@code done} event (the rest of the {@link AskResponse}). A bad request
 * is a 400 before the stream opens; a failure after it opened is an {@code error} event.
 */
@Path("/api/ask")
@Consumes(MediaType.APPLICATION_JSON)
@RolesAllowed(Role.READER)
public class AskResource {

    private final AskService asks;
    private final ObjectMapper json;

    public AskResource(AskService asks, ObjectMapper json) {
        this.asks = asks;
        this.json = json;
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    @Blocking
    @Operation(summary = "Answer a question with numbered citations {question, k (1..20), collection or collections, scopes, filter}")
    public AskResponse ask(AskRequest request) {
        return asks.answer(asks.validate(request), null);
    }

    @POST
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Operation(summary = "The same answer streamed: token events, then sources, then done")
    public Multi<OutboundSseEvent> askStreamed(AskRequest request, @Context Sse sse) {
        AskService.Question question = asks.validate(request);
        return Multi.createFrom().<OutboundSseEvent>emitter(emitter -> {
            try {
                AskResponse answer = asks.answer(question, token -> emitter.emit(event(sse, "token", Map.of("text", token))));
                emitter.emit(event(sse, "sources", Map.of("sources", answer.sources(), "memories", answer.memories(),
                        "corrections", answer.corrections())));
                emitter.emit(event(sse, "done", new AskResponse(answer.answer(), answer.mode(), answer.model(), null, null, null,
                        answer.fallbackReason(), answer.degraded(), answer.usage(), answer.tookMs(), answer.unknownFilterKeys())));
            } catch (ApiException e) {
                emitter.emit(event(sse, "error", Map.of("error", e.code(), "message", e.getMessage(), "status", e.status())));
            }
            emitter.complete();
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private OutboundSseEvent event(Sse sse, String name, Object data) {
        try {
            return sse.newEventBuilder().name(name).mediaType(MediaType.TEXT_PLAIN_TYPE)
                    .data(String.class, json.writeValueAsString(data)).build();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise the " + name + " event", e);
        }
    }
}
