package dev.openrag.ingest.stage.parse;

import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import dev.openrag.ingest.sink.MetadataUpdates;
import dev.openrag.ingest.source.SourceFields;
import dev.openrag.ingest.stage.RejectedDocument;
import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.ingest.stage.Stages;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.DocumentParsed;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Ids;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.MutinyEmitter;

/**
 * openrag.documents.arrived → openrag.documents.parsed: text, title and headings via Tika. An
 * OpenAPI 3 spec (recognised by content) becomes premade chunks and an API graph; one that
 * swagger-parser cannot read is indexed as plain text and its job shows why. The document's metadata
 * gets the source fields parsing finds ({@link SourceFields#afterParse}); a version that changes only
 * the metadata is written in place and goes no further ({@link MetadataUpdates}). A document whose
 * metadata would take its collection past {@link dev.openrag.schemas.Metadata#MAX_COLLECTION_FIELDS}
 * fields is refused here, with the reason, before any store has any of it; one that passes has its new
 * fields reserved in the collection's index, so a document parsed after it sees them.
 */
@ApplicationScoped
public class ParseStage {

    private static final Logger LOG = Logger.getLogger(ParseStage.class);

    private final StageRunner runner;
    private final DocumentParser parser;
    private final MutinyEmitter<String> parsed;
    private final MetadataUpdates metadataUpdates;
    private final LexicalIndex lexical;

    public ParseStage(StageRunner runner, DocumentParser parser, @Channel("parsed-out") MutinyEmitter<String> parsed,
                      MetadataUpdates metadataUpdates, LexicalIndex lexical) {
        this.metadataUpdates = metadataUpdates;
        this.lexical = lexical;
        this.runner = runner;
        this.parser = parser;
        this.parsed = parsed;
    }

    @Incoming("arrived-in")
    @Blocking
    public void onArrived(ConsumerRecord<String, String> record) {
        runner.runReporting(Stages.PARSE, record, DocumentArrived.class, arrived -> {
            Parsed result = parse(arrived, StageRunner.versionTime(record));
            try {
                lexical.reserveMetadataFields(arrived.collection(), storedMetadata(result.event()));
            } catch (IllegalArgumentException e) {
                throw new RejectedDocument(e.getMessage());
            }
            if (metadataUpdates.updateIfOnlyMetadataChanged(record, result.event())) {
                List<String> warnings = new java.util.ArrayList<>(result.warnings());
                warnings.add(MetadataUpdates.UPDATED);
                return new StageRunner.Outcome(0, warnings);
            }
            metadataUpdates.entered(record, result.event());
            runner.emit(parsed, result.event());
            return new StageRunner.Outcome(0, result.warnings());
        });
    }

    /** The metadata as the sinks store it: with the title parsing found when no source gave one. */
    private static Map<String, Object> storedMetadata(DocumentParsed event) {
        Map<String, Object> metadata = new java.util.HashMap<>(event.metadata() == null ? Map.of() : event.metadata());
        if (event.title() != null && !event.title().isBlank()) {
            metadata.putIfAbsent("title", event.title());
        }
        return metadata;
    }

    /** A document parsed, and what the parse could not do while still succeeding. */
    public record Parsed(DocumentParsed event, List<String> warnings) {
    }

    /** What this stage makes of a document (estimates use it too); a document it cannot parse throws. */
    public Parsed parse(DocumentArrived arrived) {
        return parse(arrived, null);
    }

    /** {@link #parse(DocumentArrived)}, the version named by the time it arrived ({@link dev.openrag.schemas.VersionedEvent}). */
    private Parsed parse(DocumentArrived arrived, Long arrivedAt) {
        if (arrived.chunks() != null && !arrived.chunks().isEmpty()) {
            // pre-chunked input: keep the producer's text and chunks exactly
            String text = DocumentArrived.TEXT.equals(arrived.contentEncoding()) ? arrived.content()
                    : parser.parse(arrived).text();
            Map<String, Object> metadata = SourceFields.afterParse(arrived.metadata(), new DocumentParser.Parsed(text, arrived.title(),
                    arrived.mediaType(), List.of(), List.of(), Map.of()));
            return new Parsed(new DocumentParsed(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), arrived.documentId(),
                    arrived.jobId(), arrived.collection(), arrived.source(), arrived.title(), arrived.mediaType(), text,
                    Ids.contentHash(text + arrived.chunks()), null, arrived.chunks(), metadata, null, null, arrivedAt), List.of());
        }
        DocumentParser.Parsed result = parser.parse(arrived);
        List<String> warnings = List.of();
        OpenApiSpecs.Spec spec = null;
        if (DocumentParser.isStructuredText(result.mediaType()) && OpenApiSpecs.looksLikeSpec(result.text())) {
            try {
                spec = OpenApiSpecs.read(result.text(), result.title());
                warnings = spec.problems().stream().map(problem -> "OpenAPI spec: " + problem).toList();
            } catch (OpenApiSpecs.InvalidSpec e) {
                LOG.warnf("document %s: %s; indexing it as plain text", arrived.documentId(), e.getMessage());
                warnings = List.of(e.getMessage() + "; the file was indexed as plain text");
            }
        }
        Map<String, Object> metadata = SourceFields.afterParse(arrived.metadata(), spec == null ? result
                : new DocumentParser.Parsed(result.text(), spec.title(), OpenApiSpecs.MEDIA_TYPE, List.of(), List.of(), result.properties()));
        DocumentParsed event = spec == null
                ? new DocumentParsed(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), arrived.documentId(),
                        arrived.jobId(), arrived.collection(), arrived.source(), result.title(), result.mediaType(),
                        result.text(), Ids.contentHash(result.text()), result.headings(), null, metadata, null,
                        result.pages().isEmpty() ? null : result.pages(), arrivedAt)
                // a spec: one chunk per operation and schema, the API graph travels to the graph sink
                : new DocumentParsed(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), arrived.documentId(),
                        arrived.jobId(), arrived.collection(), arrived.source(), spec.title(), OpenApiSpecs.MEDIA_TYPE,
                        result.text(), Ids.contentHash(result.text()), null, spec.chunks(), metadata, spec.graph(), null, arrivedAt);
        return new Parsed(event, warnings);
    }
}
