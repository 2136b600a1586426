package dev.openrag.ingest.stage.chunk;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.openrag.ingest.stage.RejectedDocument;
import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.ingest.stage.Stages;
import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.DocumentChunked;
import dev.openrag.schemas.DocumentParsed;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Ids;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.MutinyEmitter;

/** openrag.documents.parsed → openrag.chunks.chunked. */
@ApplicationScoped
public class ChunkStage {

    private final StageRunner runner;
    private final DocumentChunker chunker;
    private final MutinyEmitter<String> chunked;

    public ChunkStage(StageRunner runner, DocumentChunker chunker, @Channel("chunked-out") MutinyEmitter<String> chunked) {
        this.runner = runner;
        this.chunker = chunker;
        this.chunked = chunked;
    }

    @Incoming("parsed-in")
    @Blocking
    public void onParsed(ConsumerRecord<String, String> record) {
        runner.run(Stages.CHUNK, record, DocumentParsed.class, parsed -> {
            List<Chunk> chunks = chunker.chunk(parsed);
            if (chunks.isEmpty()) {
                throw new RejectedDocument("the document has no text to chunk");
            }
            runner.emit(chunked, new DocumentChunked(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(),
                    parsed.documentId(), parsed.jobId(), parsed.collection(), parsed.source(), parsed.title(),
                    parsed.mediaType(), parsed.text(), parsed.contentHash(), chunks, parsed.metadata(), parsed.api(),
                    parsed.headings(), parsed.pages(), parsed.arrivedAt()));
            return chunks.size();
        });
    }
}
