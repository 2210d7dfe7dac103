package io.github.boundedupload.spi;

import java.net.URI;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A request a client sends to the storage itself, signed by an {@link UploadSigner}: the method, the URL, the headers
 * it must send exactly as given (among them what the signature binds: content type, checksum), for a form the fields
 * it must send before the file, and when the signature stops being accepted. A secret while it lives: whoever has it can store the object, so {@link #toString()} gives
 * neither the URL nor the headers, and nothing of this library logs them. Immutable. Changes when a client needs more
 * to send a signed request.
 */
public final class SignedRequest {

    private final String method;
    private final URI url;
    private final Map<String, String> headers;
    private final Map<String, String> fields;
    private final Instant expiresAt;

    /**
     * A signed request.
     *
     * @param method the HTTP method, for example {@code PUT}
     * @param url the URL, signature included
     * @param headers the headers the client must send as given (not {@code Host} or {@code Content-Length}, which
     *        its HTTP client sets: the signature binds them too)
     * @param fields for a form ({@code POST}, {@code multipart/form-data}): the fields to send, in this order, before
     *        the file field; empty otherwise
     * @param expiresAt when the storage stops accepting the signature
     */
    public SignedRequest(String method, URI url, Map<String, String> headers, Map<String, String> fields,
            Instant expiresAt) {
        this.method = Objects.requireNonNull(method, "method");
        this.url = Objects.requireNonNull(url, "url");
        this.headers = Map.copyOf(headers);
        this.fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        this.expiresAt = Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /**
     * The HTTP method.
     *
     * @return for example {@code PUT}
     */
    public String method() {
        return method;
    }

    /**
     * The URL, signature included: a secret.
     *
     * @return the URL
     */
    public URI url() {
        return url;
    }

    /**
     * The headers the client must send exactly as given.
     *
     * @return header names and values, unmodifiable
     */
    public Map<String, String> headers() {
        return headers;
    }

    /**
     * The fields of a form, in the order they are sent, before the file field (named {@code file}).
     *
     * @return field names and values, unmodifiable; empty for a request that is not a form
     */
    public Map<String, String> fields() {
        return fields;
    }

    /**
     * When the storage stops accepting the signature. A request started before may still be running after it.
     *
     * @return the instant
     */
    public Instant expiresAt() {
        return expiresAt;
    }

    /** The method and the expiry only: the URL, the headers and the fields are secrets. */
    @Override
    public String toString() {
        return "SignedRequest[" + method + ", expires at " + expiresAt + "]";
    }
}
