package io.github.boundedupload.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an {@link UploaderSetupException} into a start-up report with a description and an action, instead of a
 * stack trace. (Invalid {@code bounded-upload.*} values are reported by Spring Boot's own binding analyzers, which
 * name the property, its origin and the allowed values.) Changes when the start-up report of a setup failure changes.
 */
class BoundedUploadFailureAnalyzer extends AbstractFailureAnalyzer<UploaderSetupException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UploaderSetupException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
