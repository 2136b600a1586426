package dev.openrag.ingest.stage.parse;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.ingest.stage.Stages;
import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.DocumentParsed;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Ids;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.MutinyEmitter;

/** openrag.documents.arrived → openrag.documents.parsed: text, title and headings via Tika. */
@ApplicationScoped
public class ParseStage {

    private final StageRunner runner;
    private final DocumentParser parser;
    private final MutinyEmitter<String> parsed;

    public ParseStage(StageRunner runner, DocumentParser parser, @Channel("parsed-out") MutinyEmitter<String> parsed) {
        this.runner = runner;
        this.parser = parser;
        this.parsed = parsed;
    }

    @Incoming("arrived-in")
    @Blocking
    public void onArrived(ConsumerRecord<String, String> record) {
        runner.run(Stages.PARSE, record, DocumentArrived.class, arrived -> {
            DocumentParsed event;
            if (arrived.chunks() != null && !arrived.chunks().isEmpty()) {
                // pre-chunked input: keep the producer's text and chunks exactly
                String text = DocumentArrived.TEXT.equals(arrived.contentEncoding()) ? arrived.content()
                        : parser.parse(arrived).text();
                event = new DocumentParsed(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), arrived.documentId(),
                        arrived.jobId(), arrived.collection(), arrived.source(), arrived.title(), arrived.mediaType(), text,
                        Ids.contentHash(text + arrived.chunks()), null, arrived.chunks(), arrived.metadata());
            } else {
                DocumentParser.Parsed result = parser.parse(arrived);
                event = new DocumentParsed(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), arrived.documentId(),
                        arrived.jobId(), arrived.collection(), arrived.source(), result.title(), result.mediaType(),
                        result.text(), Ids.contentHash(result.text()), result.headings(), null, arrived.metadata());
            }
            runner.emit(parsed, event);
            return 0;
        });
    }
}
