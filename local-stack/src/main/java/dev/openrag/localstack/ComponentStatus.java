package dev.openrag.localstack;

import java.util.List;

/** What {@code openrag status} shows for one component. */
public record ComponentStatus(String name, State state, Long pid, int port, List<String> logTail) {

    public enum State {
        /** process alive and its health check passes */
        RUNNING,
        /** process alive, health check not (yet) passing */
        UNHEALTHY,
        /** started by us and not stopped by us, but the process is gone */
        FAILED,
        /** not started, or stopped cleanly */
        STOPPED
    }
}
