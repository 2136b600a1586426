package dev.openrag.ingest.stage;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Puts {@link StageWaits} on {@code /q/health/ready}. */
@Readiness
@ApplicationScoped
class StagesHealthCheck implements HealthCheck {

    private final StageWaits waits;

    StagesHealthCheck(StageWaits waits) {
        this.waits = waits;
    }

    @Override
    public HealthCheckResponse call() {
        return waits.health();
    }
}
