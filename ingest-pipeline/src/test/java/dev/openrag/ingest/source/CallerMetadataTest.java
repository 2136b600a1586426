package dev.openrag.ingest.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.runtime.ApiException;

/** The multipart upload's {@code metadata} part. */
class CallerMetadataTest {

    @Test
    void aKeyNamedTwiceIsA400NotItsLastValue() {
        assertThatThrownBy(() -> CallerMetadata.fromJson("{\"team\": \"payments\", \"team\": \"risk\"}"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessageContaining("field 'metadata' is not valid JSON").hasMessageContaining("Duplicate field 'team'");
        // controls: each once, and the same name in another case is another key (refused only where it is a source field's)
        assertThat(CallerMetadata.fromJson("{\"team\": \"payments\", \"Team\": \"risk\"}"))
                .isEqualTo(Map.of("team", "payments", "Team", "risk"));
        assertThatThrownBy(() -> CallerMetadata.fromJson("{\"Title\": \"x\"}")).hasMessageContaining("in another case");
    }
}
