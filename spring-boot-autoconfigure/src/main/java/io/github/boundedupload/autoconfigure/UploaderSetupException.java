package io.github.boundedupload.autoconfigure;

/** The auto-configured uploader cannot be built; {@link BoundedUploadFailureAnalyzer} explains it at start-up. */
final class UploaderSetupException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String action;

    UploaderSetupException(String description, String action, Throwable cause) {
        super(description, cause);
        this.action = action;
    }

    UploaderSetupException(String description, String action) {
        super(description);
        this.action = action;
    }

    String action() {
        return action;
    }
}
