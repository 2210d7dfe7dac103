package io.github.boundedupload.internal;

import java.util.function.Supplier;

/**
 * Assertions inside a model-checked run: plain {@link AssertionError}s, because the model checker calls
 * {@code equals} on the objects it meets, which AssertJ's assertion objects refuse. The message is built only on
 * failure: the checker follows every step of a {@code toString()}, in every run.
 */
final class Check {

    private Check() {
    }

    static void that(boolean holds, Supplier<String> otherwise) {
        if (!holds) {
            throw new AssertionError(otherwise.get());
        }
    }
}
