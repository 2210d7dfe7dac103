/**
 * The journal's SQL and its wiring into db-scheduler. Not part of the API: it may change in any release.
 */
@NullMarked
package io.github.boundedupload.jdbc.internal;

import org.jspecify.annotations.NullMarked;
