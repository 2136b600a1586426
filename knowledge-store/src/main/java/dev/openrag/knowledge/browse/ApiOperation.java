package dev.openrag.knowledge.browse;

import java.util.List;

/** An OpenAPI operation as graph search shows it: what to call, an example, what it touches. */
public record ApiOperation(String api, String method, String path, String operationId, String summary, String parameters,
                           List<Example> examples, List<String> entities) {

    public record Example(String name, String mediaType, String value) {
    }
}
