package dev.openrag.knowledge.browse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.openrag.schemas.Heading;
import dev.openrag.schemas.Page;

/**
 * Issue 72: a chunk's place answers every question a citation asks inside the chunk (page, heading
 * path, whether a text is the one there) exactly as the whole text does, while holding only what
 * lies around the chunk.
 */
class ChunkPlacesTest {

    @Test
    void aPlaceGivesTheSamePageAndHeadingsAsTheWholeTextAtEveryOffsetOfItsChunk() {
        Random random = new Random(72);
        for (int round = 0; round < 200; round++) {
            int length = 50 + random.nextInt(2_000);
            StringBuilder chars = new StringBuilder();
            for (int i = 0; i < length; i++) {
                chars.append((char) ('a' + random.nextInt(26)));
            }
            String text = chars.toString();
            List<Page> pages = new ArrayList<>();
            // pages with gaps between them and, some rounds, none at all
            for (int at = 0, page = 1; random.nextInt(5) > 0 && at < length; page++) {
                int end = Math.min(length, at + 1 + random.nextInt(300));
                pages.add(new Page(page, at, end));
                at = end + (random.nextBoolean() ? 0 : random.nextInt(20));
            }
            if (round % 4 == 3) {
                // some rounds: pages out of order and overlapping (the first in the list holding an offset is its page)
                for (int extra = 0; extra < 3; extra++) {
                    int start = random.nextInt(length);
                    pages.add(random.nextInt(pages.size() + 1), new Page(100 + extra, start, Math.min(length, start + random.nextInt(600))));
                }
                java.util.Collections.shuffle(pages, random);
            }
            List<Heading> headings = new ArrayList<>();
            for (int at = random.nextInt(40); at < length; at += 1 + random.nextInt(120)) {
                headings.add(new Heading(1 + random.nextInt(4), "h" + at, at));
            }
            List<DocumentText.ChunkSpan> chunks = new ArrayList<>();
            for (int index = 0; index < 8; index++) {
                int start = random.nextInt(length);
                chunks.add(new DocumentText.ChunkSpan(index, start, Math.min(length, start + 1 + random.nextInt(400))));
            }
            DocumentText whole = new DocumentText("c", "d", "v", text, pages, headings, chunks);
            List<ChunkPlace> places = whole.places();
            assertThat(places).hasSize(chunks.size());
            for (ChunkPlace place : places) {
                DocumentText.ChunkSpan chunk = whole.chunk(place.index()).orElseThrow();
                assertThat(place.start()).isEqualTo(chunk.start());
                assertThat(place.holds(text.substring(chunk.start(), chunk.end()))).isTrue();
                for (int offset = chunk.start(); offset < chunk.end(); offset++) {
                    assertThat(place.pageAt(offset)).as("page at %d", offset).isEqualTo(whole.pageAt(offset));
                    assertThat(place.headingPathAt(offset)).as("headings at %d", offset).isEqualTo(whole.headingPathAt(offset));
                }
                assertThat(place.headings().size()).as("the open headings and those inside the chunk only")
                        .isLessThanOrEqualTo(4 + (int) headings.stream().filter(h -> h.offset() > chunk.start() && h.offset() < chunk.end()).count());
            }
        }
    }

    /** Many pages and many chunks: each chunk's pages are found by binary search, and are those the whole text gives. */
    @Test
    void manyChunksOverManyPagesGetTheirOwnPagesEach() {
        StringBuilder text = new StringBuilder();
        List<Page> pages = new ArrayList<>();
        for (int page = 1; page <= 5_000; page++) {
            int start = text.length();
            text.append("Page ").append(page).append(" words. ".repeat(10));
            pages.add(new Page(page, start, text.length()));
        }
        List<DocumentText.ChunkSpan> chunks = new ArrayList<>();
        for (int index = 0; index < 5_000; index++) {
            int start = pages.get(index).start() + 3;
            chunks.add(new DocumentText.ChunkSpan(index, start, Math.min(text.length(), start + 150)));
        }
        DocumentText whole = new DocumentText("c", "d", "v", text.toString(), pages, List.of(), chunks);
        List<ChunkPlace> places = whole.places();
        assertThat(places).hasSize(chunks.size());
        for (ChunkPlace place : places) {
            List<Integer> expected = pages.stream().filter(page -> page.start() < place.end() && page.end() > place.start())
                    .map(Page::page).toList();
            assertThat(place.pages()).extracting(Page::page).as("chunk " + place.index()).isEqualTo(expected);
        }
    }

    /**
     * A chunk that is not in the text (a pre-made chunk, an OpenAPI operation rendered from its spec) is
     * placed elsewhere: known by its own text, without offsets, whatever the text's size.
     */
    @Test
    void aChunkElsewhereIsPlacedByItsOwnText() {
        String rendered = "GET /pets: lists the pets of the store.";
        String text = "openapi: 3.0.0\npaths:\n  /pets:\n    get:\n      summary: lists the pets".repeat(1_000);
        DocumentText whole = new DocumentText("c", "d", "v1", text, List.of(new Page(1, 0, text.length())), List.of(new Heading(1, "Pets", 0)),
                List.of(new DocumentText.ChunkSpan(0, 0, 14)), List.of(new DocumentText.Elsewhere(1, ChunkPlace.hash(rendered))));
        assertThat(whole.knowsEveryChunk()).isTrue();
        ChunkPlace elsewhere = whole.place(1).orElseThrow();
        assertThat(whole.places()).contains(elsewhere).hasSize(2);
        assertThat(elsewhere.isElsewhere()).isTrue();
        assertThat(elsewhere.holds(rendered)).isTrue();
        assertThat(elsewhere.holds("GET /pets: lists the pets of the zoo.")).as("another version's chunk").isFalse();
        assertThat(elsewhere.pages()).isEmpty();
        assertThat(elsewhere.headings()).isEmpty();
        // the control: the chunk at its offsets is placed there, not elsewhere
        assertThat(whole.place(0).orElseThrow().isElsewhere()).isFalse();
        assertThat(whole.place(0).orElseThrow().holds("openapi: 3.0.0")).isTrue();
        assertThat(whole.place(2)).as("no chunk 2 in this version").isEmpty();
        assertThat(new DocumentText("c", "d", "v1", text, List.of(), List.of(), List.of(), null).knowsEveryChunk())
                .as("a text stored before chunks elsewhere were kept").isFalse();
    }

    @Test
    void aPlaceHoldsOnlyTheExactTextOfItsChunk() {
        String text = "Ferrets sleep. 😀 Otters swim.";
        int start = text.indexOf("😀");
        DocumentText whole = new DocumentText("c", "d", "v1", text, List.of(), List.of(),
                List.of(new DocumentText.ChunkSpan(0, start, text.length())));
        ChunkPlace place = whole.place(0).orElseThrow();
        assertThat(place.holds("😀 Otters swim.")).isTrue();
        assertThat(place.holds("😀 Otters swam.")).as("same length, other text").isFalse();
        assertThat(place.holds("😀 Otters swim")).isFalse();
        assertThat(place.holds("\uD83D Otters swim.")).as("half a surrogate pair is another text").isFalse();
        assertThat(whole.place(1)).as("no span, no place").isEmpty();
    }

    @Test
    void offsetsOutsideTheTextGiveAPlaceWithoutHashAndNoException() {
        DocumentText whole = new DocumentText("c", "d", "v1", "Short text.", List.of(new Page(1, 0, 11)), List.of(),
                List.of(new DocumentText.ChunkSpan(0, 5, 400), new DocumentText.ChunkSpan(1, -3, 4), new DocumentText.ChunkSpan(2, 8, 2),
                        new DocumentText.ChunkSpan(3, 0, 5)));
        List<ChunkPlace> places = whole.places();
        assertThat(places).filteredOn(place -> place.index() < 3).allSatisfy(place -> {
            assertThat(place.inRange()).isFalse();
            assertThat(place.holds("anything")).isFalse();
        });
        assertThat(places).filteredOn(place -> place.index() == 3).singleElement()
                .satisfies(place -> assertThat(place.holds("Short")).isTrue());
    }

    @Test
    void aPlaceInAVeryLongTextHoldsAHandfulOfPagesAndHeadings() {
        StringBuilder text = new StringBuilder();
        List<Page> pages = new ArrayList<>();
        List<Heading> headings = new ArrayList<>();
        for (int page = 1; page <= 2_000; page++) {
            int start = text.length();
            headings.add(new Heading(2, "Section " + page, start));
            text.append("Page ").append(page).append(" body text. ".repeat(200));
            pages.add(new Page(page, start, text.length()));
        }
        int start = pages.get(999).end() - 10;
        DocumentText whole = new DocumentText("c", "d", "v", text.toString(), pages, headings,
                List.of(new DocumentText.ChunkSpan(0, start, start + 500)));
        assertThat(text.length()).isGreaterThan(4_000_000);
        ChunkPlace place = whole.places().get(0);
        assertThat(place.pages()).extracting(Page::page).containsExactly(1000, 1001);
        assertThat(place.headings()).extracting(Heading::text).containsExactly("Section 1000", "Section 1001");
        assertThat(place.headingPathAt(start + 20)).containsExactly("Section 1001");
        assertThat(place.lastPage()).isEqualTo(2000);
    }
}
