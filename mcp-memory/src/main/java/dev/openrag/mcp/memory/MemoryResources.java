package dev.openrag.mcp.memory;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.memory.Memory;
import io.quarkiverse.mcp.server.JsonRpcErrorCodes;
import io.quarkiverse.mcp.server.McpException;
import io.quarkiverse.mcp.server.RequestUri;
import io.quarkiverse.mcp.server.ResourceTemplate;
import io.quarkiverse.mcp.server.TextResourceContents;

/** {@code memory://{scope}/{id}}: a memory as a JSON resource. */
@Singleton
public class MemoryResources {

    private final Memories memories;
    private final ObjectMapper json;

    public MemoryResources(Memories memories, ObjectMapper json) {
        this.memories = memories;
        this.json = json;
    }

    @ResourceTemplate(name = "memory", uriTemplate = "memory://{scope}/{id}", mimeType = "application/json",
            description = "A memory of a scope, as JSON")
    public TextResourceContents memory(String scope, String id, RequestUri uri) throws JsonProcessingException {
        Memory memory = memories.find(id).filter(found -> found.scope().equals(scope))
                .orElseThrow(() -> new McpException("no memory with id '" + id + "' in scope '" + scope + "'",
                        JsonRpcErrorCodes.RESOURCE_NOT_FOUND));
        return new TextResourceContents(uri.value(), json.writeValueAsString(memory), "application/json");
    }
}
