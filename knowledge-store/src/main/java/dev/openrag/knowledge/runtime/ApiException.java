package dev.openrag.knowledge.runtime;

/** A request the API refuses: HTTP status, a stable error code and a message for people. */
public class ApiException extends RuntimeException {

    private final int status;
    private final String code;

    public ApiException(int status, String code, String message) {
        super(message);
        this.status = status;
        this.code = code;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public static ApiException badRequest(String message) {
        return new ApiException(400, "bad_request", message);
    }

    public static ApiException notFound(String message) {
        return new ApiException(404, "not_found", message);
    }
}
