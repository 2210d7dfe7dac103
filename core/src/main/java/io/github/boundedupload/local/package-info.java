/**
 * The local-filesystem storage: the embedded default, so that everything runs without a cloud account.
 */
@NullMarked
package io.github.boundedupload.local;

import org.jspecify.annotations.NullMarked;
