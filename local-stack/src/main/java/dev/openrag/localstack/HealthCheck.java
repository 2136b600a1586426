package dev.openrag.localstack;

/** Asks a running component whether it really serves requests (not just whether its port is open). */
@FunctionalInterface
public interface HealthCheck {

    /** @return true when healthy; false or an exception when not (yet). */
    boolean healthy() throws Exception;
}
