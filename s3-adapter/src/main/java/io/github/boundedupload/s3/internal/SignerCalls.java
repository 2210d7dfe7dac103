package io.github.boundedupload.s3.internal;

import io.github.boundedupload.spi.SignRequest;
import io.github.boundedupload.spi.SignedParts;
import io.github.boundedupload.spi.SignedRequest;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListPartsResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.Part;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.s3.presigner.model.PresignedUploadPartRequest;

/**
 * What {@code S3UploadSigner} does in the bucket itself, on the application's client: the size of what a form stored
 * (HeadObject), and the multipart uploads of direct uploads: CreateMultipartUpload and a presigned UploadPart
 * per part when a large file is granted (the upload aborted when a part cannot be signed); ListParts, their check and
 * CompleteMultipartUpload when it is confirmed; AbortMultipartUpload of one, and of those under a prefix started before
 * a time (the reconciliation). On the application's client, blocking or not; every call waits for its answer. Never
 * logs a URL. Changes when how a client's multipart upload is started, completed or aborted changes.
 */
public final class SignerCalls {

    /** Headers the client's HTTP stack sets itself (a browser may not set them); the signature still binds them. */
    public static final List<String> SET_BY_THE_CLIENT = List.of("host", "content-length");
    private static final int PAGE = 1000;

    private final S3Presigner presigner;
    private final String bucket;
    private final @Nullable S3Client client;
    private final @Nullable S3AsyncClient asyncClient;

    /**
     * @param client the application's blocking client, or {@code null} with {@code asyncClient}
     * @param asyncClient the application's non-blocking client, or {@code null} with {@code client}
     */
    public SignerCalls(S3Presigner presigner, String bucket, @Nullable S3Client client,
            @Nullable S3AsyncClient asyncClient) {
        if ((client == null) == (asyncClient == null)) {
            throw new IllegalArgumentException("one client: blocking or not");
        }
        this.presigner = presigner;
        this.bucket = bucket;
        this.client = client;
        this.asyncClient = asyncClient;
    }

    /** Starts the upload and signs its parts; aborts it when a part cannot be signed. */
    public SignedParts sign(SignRequest request, long partSize) throws IOException {
        if (request.checksum().isPresent()) {
            throw new IllegalArgumentException("a multipart upload's parts are signed without a checksum: S3 keeps one"
                    + " per part, not one of the object");
        }
        String key = request.key();
        String uploadId = call(s -> s.createMultipartUpload(r -> r.bucket(bucket).key(key)
                .contentType(request.contentType())).uploadId(), a -> a.createMultipartUpload(r -> r.bucket(bucket)
                .key(key).contentType(request.contentType())).thenApply(r -> r.uploadId()));
        try {
            long parts = Math.max(1, (request.size() + partSize - 1) / partSize);
            List<SignedRequest> signed = new ArrayList<>();
            for (int number = 1; number <= parts; number++) {
                long length = Math.min(partSize, request.size() - (number - 1) * partSize);
                UploadPartRequest part = UploadPartRequest.builder().bucket(bucket).key(key).uploadId(uploadId)
                        .partNumber(number).contentLength(length).build();
                PresignedUploadPartRequest presigned = presigner.presignUploadPart(p -> p
                        .signatureDuration(request.lifetime()).uploadPartRequest(part));
                signed.add(new SignedRequest("PUT", uri(presigned.url().toString()), clientHeaders(
                        presigned.signedHeaders()), Map.of(), presigned.expiration()));
            }
            return new SignedParts(uploadId, partSize, signed);
        } catch (RuntimeException e) {
            try {
                abort(key, uploadId);
            } catch (IOException | RuntimeException abort) {
                e.addSuppressed(abort);
            }
            throw e;
        }
    }

    /** The headers of a presigned request that the client sends itself: all signed ones but host and length. */
    public static Map<String, String> clientHeaders(Map<String, List<String>> signed) {
        Map<String, String> headers = new LinkedHashMap<>();
        signed.forEach((name, values) -> {
            if (!SET_BY_THE_CLIENT.contains(name.toLowerCase(Locale.ROOT))) {
                headers.put(name, String.join(",", values));
            }
        });
        return headers;
    }

    /** Checks the parts (1 to the last, {@code size} bytes in all) and completes the upload. */
    public void complete(String key, String uploadId, long size) throws IOException {
        List<Part> parts = new ArrayList<>();
        try {
            Integer marker = null;
            do {
                Integer after = marker;
                ListPartsResponse page = call(s -> s.listParts(r -> r.bucket(bucket).key(key).uploadId(uploadId)
                        .maxParts(PAGE).partNumberMarker(after)), a -> a.listParts(r -> r.bucket(bucket).key(key)
                        .uploadId(uploadId).maxParts(PAGE).partNumberMarker(after)));
                parts.addAll(page.parts());
                marker = Boolean.TRUE.equals(page.isTruncated()) ? page.nextPartNumberMarker() : null;
            } while (marker != null);
        } catch (S3CallException e) {
            if (e.notFound()) {
                completedBefore(key, size);
                return;
            }
            throw e;
        }
        long total = 0;
        for (int i = 0; i < parts.size(); i++) {
            Part part = parts.get(i);
            if (part.partNumber() != i + 1) {
                throw new IOException("part " + (i + 1) + " of the multipart upload is missing");
            }
            total += part.size();
        }
        if (parts.isEmpty() || total != size) {
            throw new IOException("the multipart upload's " + parts.size() + " parts are " + total + " bytes, not the "
                    + size + " announced" + (parts.isEmpty() ? "" : ": a part is missing"));
        }
        List<CompletedPart> completed = parts.stream().map(p -> CompletedPart.builder().partNumber(p.partNumber())
                .eTag(p.eTag()).build()).toList();
        try {
            call(s -> s.completeMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(uploadId)
                    .multipartUpload(m -> m.parts(completed))), a -> a.completeMultipartUpload(r -> r.bucket(bucket)
                    .key(key).uploadId(uploadId).multipartUpload(m -> m.parts(completed))));
        } catch (S3CallException e) {
            if (e.notFound()) {
                completedBefore(key, size); // its answer lost once, or completed by a confirm at the same time
                return;
            }
            throw e;
        }
    }

    /** The upload is gone: completed before (its object is there, of its size), or aborted. */
    private void completedBefore(String key, long size) throws IOException {
        HeadObjectResponse head;
        try {
            head = call(s -> s.headObject(r -> r.bucket(bucket).key(key)), a -> a.headObject(r -> r.bucket(bucket)
                    .key(key)));
        } catch (S3CallException e) {
            if (e.notFound()) {
                throw new IOException("the multipart upload is gone: aborted (its grant expired, or it was never"
                        + " granted), or never started", e);
            }
            throw e;
        }
        if (!Objects.equals(head.contentLength(), size)) {
            throw new IOException("the multipart upload was completed with " + head.contentLength() + " bytes, not the "
                    + size + " announced");
        }
    }

    /** The size of the object under the key, or empty when there is none. */
    public OptionalLong size(String key) throws IOException {
        try {
            Long length = call(s -> s.headObject(r -> r.bucket(bucket).key(key)).contentLength(),
                    a -> a.headObject(r -> r.bucket(bucket).key(key)).thenApply(HeadObjectResponse::contentLength));
            return length == null ? OptionalLong.empty() : OptionalLong.of(length);
        } catch (S3CallException e) {
            if (e.notFound()) {
                return OptionalLong.empty();
            }
            throw e;
        }
    }

    /** Aborts one upload; one gone already is no failure. */
    public void abort(String key, String uploadId) throws IOException {
        try {
            call(s -> s.abortMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(uploadId)),
                    a -> a.abortMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(uploadId)));
        } catch (S3CallException e) {
            if (!e.notFound()) {
                throw e;
            }
        }
    }

    /** Aborts at most {@code limit} incomplete uploads under the prefix started before the time. */
    public int abortIncomplete(String prefix, Instant startedBefore, int limit) throws IOException {
        int aborted = 0;
        String keyMarker = null;
        String uploadIdMarker = null;
        do {
            String key = keyMarker;
            String upload = uploadIdMarker;
            ListMultipartUploadsResponse page = call(s -> s.listMultipartUploads(r -> r.bucket(bucket).prefix(prefix)
                    .maxUploads(PAGE).keyMarker(key).uploadIdMarker(upload)), a -> a.listMultipartUploads(r -> r
                    .bucket(bucket).prefix(prefix).maxUploads(PAGE).keyMarker(key).uploadIdMarker(upload)));
            for (MultipartUpload found : page.uploads()) {
                if (aborted < limit && found.initiated() != null && found.initiated().isBefore(startedBefore)) {
                    abort(found.key(), found.uploadId());
                    aborted++;
                }
            }
            boolean more = Boolean.TRUE.equals(page.isTruncated()) && aborted < limit;
            keyMarker = more ? page.nextKeyMarker() : null;
            uploadIdMarker = more ? page.nextUploadIdMarker() : null;
        } while (keyMarker != null);
        return aborted;
    }

    private <T> T call(Function<S3Client, T> blocking, Function<S3AsyncClient, CompletableFuture<T>> nonBlocking)
            throws S3CallException {
        try {
            return client != null ? blocking.apply(client) : nonBlocking.apply(Objects.requireNonNull(asyncClient))
                    .join();
        } catch (CompletionException e) {
            throw new S3CallException(e.getCause() != null ? e.getCause() : e);
        } catch (SdkException e) {
            throw new S3CallException(e);
        }
    }

    private static URI uri(String url) {
        try {
            return new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("the SDK signed a URL that is not a URI", e);
        }
    }

    /** A call S3 failed; the message says how in a few words (never a URL). */
    static final class S3CallException extends IOException {
        private static final long serialVersionUID = 1L;

        private final transient Throwable failure;

        S3CallException(Throwable cause) {
            super("S3 answered " + Failures.describe(cause), cause);
            this.failure = cause;
        }

        /** S3 answered 404: no such key, or no such upload. */
        boolean notFound() {
            return Failures.notFound(failure);
        }
    }

    @Override
    public String toString() {
        return "SignerCalls[" + bucket + "]";
    }
}
