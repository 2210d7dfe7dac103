package io.github.boundedupload.autoconfigure;

import java.util.function.Supplier;

/**
 * The auto-configured uploader cannot be built; {@link BoundedUploadFailureAnalyzer} explains it at start-up.
 * Changes when what a setup failure carries to the analyzer changes.
 */
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

    /**
     * Builds what customizer beans had the last word on. The properties were checked when they were bound, so a value
     * the builder refuses was set by a customizer, and the failure says so.
     *
     * @param invalid what is invalid, as in "S3 options are invalid"
     * @param customizers the customizer type's simple name
     * @param build builds it, throwing {@link IllegalArgumentException} for an invalid value
     * @return what was built
     */
    static <T> T afterCustomizers(String invalid, String customizers, Supplier<T> build) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            throw new UploaderSetupException("The bounded-upload " + invalid + " after the " + customizers
                    + " beans were applied: " + e.getMessage(), "Change the " + customizers
                            + " bean that sets this value.", e);
        }
    }
}
