/** The S3 adapters' implementation; not for use outside this module. */
@NullMarked
package io.github.boundedupload.s3.internal;

import org.jspecify.annotations.NullMarked;
