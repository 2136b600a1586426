package dev.openrag.ingest.sink;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.ingest.stage.Stages;
import dev.openrag.knowledge.browse.ChunkPlace;
import dev.openrag.knowledge.browse.DocumentText;
import dev.openrag.knowledge.port.DocumentTexts;
import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.DocumentChunked;
import io.smallrye.common.annotation.Blocking;

/**
 * openrag.chunks.chunked → each document's extracted text in Neo4j (its own consumer group), with
 * its version (content hash), pages, headings and every chunk's span, for exact-span citations. A
 * chunk whose offsets do not slice the text to its own text exactly gets no span. One whose text
 * the document's text does not hold anywhere (a pre-made chunk not found in it, such as an OpenAPI
 * operation rendered from its spec) is kept as lying elsewhere, by its own text's hash, so that a hit
 * on it is cited without reading the text; one whose text is in it, but not at its offsets, gets no
 * place at all: a hit on it is cited as the whole text would cite it (of another version).
 *
 * <p>Each write carries the time the document's version arrived, fixed at parsing and carried on by
 * every stage ({@link StageRunner#versionTime(ConsumerRecord, dev.openrag.schemas.EventEnvelope)}). A redelivered or replayed
 * older event never puts older text back, and one that arrived before a delete stays out (the delete
 * sink leaves a tombstone, {@link Neo4jSink#onDeleted}).
 */
@ApplicationScoped
public class TextSink {

    private static final Logger LOG = Logger.getLogger(TextSink.class);

    private final StageRunner runner;
    private final DocumentTexts texts;

    public TextSink(StageRunner runner, DocumentTexts texts) {
        this.runner = runner;
        this.texts = texts;
    }

    @Incoming("chunked-text")
    @Blocking
    public void onChunked(ConsumerRecord<String, String> record) {
        runner.run(Stages.SINK_TEXT, record, DocumentChunked.class, document -> {
            if (!texts.put(of(document), StageRunner.versionTime(record, document))) {
                LOG.infof("text of document %s not written: a newer version or its delete is stored", document.documentId());
            }
            return document.chunks().size();
        });
    }

    static DocumentText of(DocumentChunked document) {
        String text = document.text();
        Map<Boolean, List<Chunk>> located = document.chunks().stream().collect(Collectors.partitioningBy(chunk ->
                chunk.startOffset() >= 0 && chunk.endOffset() <= text.length() && chunk.startOffset() <= chunk.endOffset()
                        && text.regionMatches(chunk.startOffset(), chunk.text(), 0, chunk.text().length())
                        && chunk.endOffset() - chunk.startOffset() == chunk.text().length()));
        return new DocumentText(document.collection(), document.documentId(), document.contentHash(), text,
                document.pages() == null ? List.of() : document.pages(),
                document.headings() == null ? List.of() : document.headings(),
                located.get(true).stream().map(chunk -> new DocumentText.ChunkSpan(chunk.index(), chunk.startOffset(), chunk.endOffset()))
                        .toList(),
                located.get(false).stream().filter(chunk -> text.indexOf(chunk.text()) < 0)
                        .map(chunk -> new DocumentText.Elsewhere(chunk.index(), ChunkPlace.hash(chunk.text()))).toList());
    }
}
