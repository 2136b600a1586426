package dev.openrag.schemas;

import java.util.List;

/** An event that is not JSON or breaks its schema; {@link #problems()} name the offending fields. */
public class InvalidEventException extends RuntimeException {

    private final List<String> problems;

    public InvalidEventException(EventType type, List<String> problems) {
        super("invalid " + type.recordType().getSimpleName() + ": " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
