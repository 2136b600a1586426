package dev.openrag.query.config;

import dev.openrag.knowledge.browse.ApiOperation;
import dev.openrag.knowledge.browse.CollectionSummary;
import dev.openrag.knowledge.browse.DocumentDetail;
import dev.openrag.knowledge.browse.DocumentSummary;
import dev.openrag.knowledge.browse.Neighbourhood;
import dev.openrag.knowledge.port.Correction;
import dev.openrag.memory.Memory;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Types from knowledge-store that answers serialise to JSON: registered for reflection so the
 * native image (-Pnative) writes them like the JVM does (the app's own records are found by Quarkus REST).
 */
@RegisterForReflection(targets = {Correction.class, CollectionSummary.class, DocumentSummary.class, DocumentDetail.class,
        DocumentDetail.ChunkView.class, Neighbourhood.class, Neighbourhood.Node.class, Neighbourhood.Edge.class,
        ApiOperation.class, ApiOperation.Example.class, Memory.class, Memory.Link.class})
public final class NativeReflection {

    private NativeReflection() {
    }
}
