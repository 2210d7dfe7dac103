package io.github.boundedupload.s3.internal;

import io.github.boundedupload.spi.ListedObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The objects under a prefix, for either client: ListObjectsV2 from the key after {@code after}, page after page (at
 * most 1,000 keys each, S3's page), until {@code limit} objects or the last page; a failure is an
 * {@code S3UploadException}. Changes when listing changes.
 */
public final class Listing {

    private static final int PAGE = 1000;

    private Listing() {
    }

    /** Lists; the future fails as the client's call fails. */
    public static CompletableFuture<List<ListedObject>> list(Settings settings, S3Ops ops, String prefix,
            @Nullable String after, int limit) {
        if (limit < 1) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("limit must be >= 1, was " + limit));
        }
        return page(settings, ops, prefix, after, limit, new ArrayList<>()).handle((listed, failure) -> {
            if (failure != null) {
                throw Failures.list(settings, prefix, failure);
            }
            return listed;
        });
    }

    private static CompletableFuture<List<ListedObject>> page(Settings settings, S3Ops ops, String prefix,
            @Nullable String after, int limit, List<ListedObject> listed) {
        ListObjectsV2Request.Builder request = ListObjectsV2Request.builder().bucket(settings.bucket()).prefix(prefix)
                .maxKeys(Math.min(PAGE, limit - listed.size()));
        if (after != null) {
            request.startAfter(after);
        }
        return ops.list(request.build()).thenCompose(response -> {
            String last = null;
            for (S3Object object : response.contents()) {
                listed.add(new ListedObject(object.key(), Objects.requireNonNullElse(object.size(), 0L),
                        Objects.requireNonNull(object.lastModified(), "LastModified")));
                last = object.key();
            }
            boolean more = Boolean.TRUE.equals(response.isTruncated()) && last != null && listed.size() < limit;
            return more ? page(settings, ops, prefix, last, limit, listed)
                    : CompletableFuture.completedFuture(List.copyOf(listed));
        });
    }
}
