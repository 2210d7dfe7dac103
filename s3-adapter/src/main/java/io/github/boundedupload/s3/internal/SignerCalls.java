package io.github.boundedupload.s3.internal;

import io.github.boundedupload.spi.SignRequest;
import io.github.boundedupload.spi.SignedParts;
import io.github.boundedupload.spi.SignedRequest;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
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
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListPartsRequest;
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
        CreateMultipartUploadRequest create = CreateMultipartUploadRequest.builder().bucket(bucket).key(key)
                .contentType(request.contentType()).build();
        String uploadId = call(s -> s.createMultipartUpload(create), a -> a.createMultipartUpload(create))
                .uploadId();
        try {
            long parts = Math.max(1, (request.size() + partSize - 1) / partSize);
            List<SignedRequest> signed = new ArrayList<>();
            for (int number = 1; number <= parts; number++) {
                long length = Math.min(partSize, request.size() - (number - 1) * partSize);
                UploadPartRequest part = UploadPartRequest.builder().bucket(bucket).key(key).uploadId(uploadId)
                        .partNumber(number).contentLength(length).build();
                PresignedUploadPartRequest presigned = presigner.presignUploadPart(p -> p
                        .signatureDuration(request.lifetime()).uploadPartRequest(part));
                signed.add(new SignedRequest("PUT", uri(presigned.url()), clientHeaders(
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
                ListPartsRequest list = ListPartsRequest.builder().bucket(bucket).key(key).uploadId(uploadId)
                        .maxParts(PAGE).partNumberMarker(marker).build();
                ListPartsResponse page = call(s -> s.listParts(list), a -> a.listParts(list));
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
        CompleteMultipartUploadRequest complete = CompleteMultipartUploadRequest.builder().bucket(bucket).key(key)
                .uploadId(uploadId).multipartUpload(m -> m.parts(completed)).build();
        try {
            call(s -> s.completeMultipartUpload(complete), a -> a.completeMultipartUpload(complete));
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
        OptionalLong found = size(key);
        if (found.isEmpty()) {
            throw new IOException("the multipart upload is gone: aborted (its grant expired, or it was never"
                    + " granted), or never started");
        }
        if (found.getAsLong() != size) {
            throw new IOException("the multipart upload was completed with " + found.getAsLong() + " bytes, not the "
                    + size + " announced");
        }
    }

    /** The size of the object under the key, or empty when there is none. */
    public OptionalLong size(String key) throws IOException {
        HeadObjectRequest head = HeadObjectRequest.builder().bucket(bucket).key(key).build();
        try {
            Long length = call(s -> s.headObject(head), a -> a.headObject(head)).contentLength();
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
        AbortMultipartUploadRequest abort = AbortMultipartUploadRequest.builder().bucket(bucket).key(key)
                .uploadId(uploadId).build();
        try {
            call(s -> s.abortMultipartUpload(abort), a -> a.abortMultipartUpload(abort));
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
            ListMultipartUploadsRequest list = ListMultipartUploadsRequest.builder().bucket(bucket).prefix(prefix)
                    .maxUploads(PAGE).keyMarker(keyMarker).uploadIdMarker(uploadIdMarker).build();
            ListMultipartUploadsResponse page = call(s -> s.listMultipartUploads(list),
                    a -> a.listMultipartUploads(list));
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

    /** The URL the SDK presigned, as a URI. */
    public static URI uri(URL url) {
        try {
            return url.toURI();
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
