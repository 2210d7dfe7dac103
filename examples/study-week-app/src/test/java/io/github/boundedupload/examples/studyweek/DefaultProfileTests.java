package io.github.boundedupload.examples.studyweek;

/** The failure paths on the default set-up: H2 in a file, the local disk. */
class DefaultProfileTests extends LocalDiskFailurePaths {
}
