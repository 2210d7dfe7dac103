package io.github.boundedupload.autoconfigure;

import java.util.Map;

/**
 * What the upload journal holds, for the health indicator's details. Refers to no optional library, so that the
 * indicator works without {@code bounded-upload-jdbc}. Changes when the journal's health details change.
 */
@FunctionalInterface
interface JournalCheck {

    /**
     * Adds the journal's state to the details.
     *
     * @param details where to add it
     */
    void addTo(Map<String, Object> details);
}
