package io.github.boundedupload.autoconfigure;

import java.time.Duration;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.util.unit.DataSize;

/**
 * Settings of direct uploads (a {@code DirectUploads} bean): clients send the bytes to the storage on signed URLs
 * that the application grants, and the application confirms what arrived. Changes when {@code DirectUploads} gets
 * another setting.
 */
public class DirectProperties {

    /**
     * Whether to grant direct uploads. Needs a storage that signs (the S3 storage) and the upload journal, which keeps
     * the grants across the fleet and removes what was uploaded and never confirmed.
     */
    private boolean enabled;

    /**
     * Where granted uploads land until they are confirmed and copied to their own keys: a prefix of its own, since
     * what it holds is removed once no grant covers it. Give the bucket lifecycle rules for it (docs/direct-uploads.md).
     */
    private String stagingPrefix = "staging/";

    /** How long a grant's signed URLs are valid: the client must start its upload within it. At most 7 days. */
    private Duration lifetime = Duration.ofMinutes(10);

    /**
     * The longest time an upload started before its grant expired may still be running: a staging object is removed
     * only once it is older than the lifetime plus this.
     */
    private Duration longestRequest = Duration.ofHours(1);

    /** Files one request for grants may name. */
    private int maxFilesPerRequest = 20;

    /** Largest file granted; by default the uploader's bounded-upload.max-attachment-size. */
    private @Nullable DataSize maxBytesPerFile;

    /** Bytes one request for grants may announce in all. */
    private DataSize maxBytesPerRequest = DataSize.ofGigabytes(1);

    /** Grants a caller (a user, a tenant) may hold unconfirmed at once, across the fleet. */
    private int maxOutstandingPerCaller = 100;

    /**
     * On S3: files larger than this are sent in parts of a multipart upload (one signed PUT stores at most 5 GiB),
     * announced without a checksum.
     */
    private DataSize partsAbove = DataSize.ofMegabytes(100);

    /** On S3: the size of the parts of a file sent in parts, at least 5MB; larger where it would have 10,000 parts. */
    private DataSize partSize = DataSize.ofMegabytes(16);

    /**
     * On the local disk: the path of this application that receives the signed PUTs (a servlet filter; let it through
     * Spring Security, the signature is its authorization), or an absolute URL that leads to it.
     */
    private String localPath = "/bounded-upload/uploads";

    /**
     * On the local disk: the secret the upload URLs are signed with, at least 32 characters; random per start when
     * not set (URLs signed before a restart are refused then). Instances that share one disk share it.
     */
    private @Nullable String localSecret;

    /** Content types granted (such as image/png); any when none is set. */
    private @Nullable Set<String> contentTypes;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getStagingPrefix() {
        return stagingPrefix;
    }

    public void setStagingPrefix(String stagingPrefix) {
        this.stagingPrefix = stagingPrefix;
    }

    public Duration getLifetime() {
        return lifetime;
    }

    public void setLifetime(Duration lifetime) {
        this.lifetime = lifetime;
    }

    public Duration getLongestRequest() {
        return longestRequest;
    }

    public void setLongestRequest(Duration longestRequest) {
        this.longestRequest = longestRequest;
    }

    public int getMaxFilesPerRequest() {
        return maxFilesPerRequest;
    }

    public void setMaxFilesPerRequest(int maxFilesPerRequest) {
        this.maxFilesPerRequest = maxFilesPerRequest;
    }

    public @Nullable DataSize getMaxBytesPerFile() {
        return maxBytesPerFile;
    }

    public void setMaxBytesPerFile(@Nullable DataSize maxBytesPerFile) {
        this.maxBytesPerFile = maxBytesPerFile;
    }

    public DataSize getMaxBytesPerRequest() {
        return maxBytesPerRequest;
    }

    public void setMaxBytesPerRequest(DataSize maxBytesPerRequest) {
        this.maxBytesPerRequest = maxBytesPerRequest;
    }

    public DataSize getPartsAbove() {
        return partsAbove;
    }

    public void setPartsAbove(DataSize partsAbove) {
        this.partsAbove = partsAbove;
    }

    public DataSize getPartSize() {
        return partSize;
    }

    public void setPartSize(DataSize partSize) {
        this.partSize = partSize;
    }

    public int getMaxOutstandingPerCaller() {
        return maxOutstandingPerCaller;
    }

    public void setMaxOutstandingPerCaller(int maxOutstandingPerCaller) {
        this.maxOutstandingPerCaller = maxOutstandingPerCaller;
    }

    public String getLocalPath() {
        return localPath;
    }

    public void setLocalPath(String localPath) {
        this.localPath = localPath;
    }

    public @Nullable String getLocalSecret() {
        return localSecret;
    }

    public void setLocalSecret(@Nullable String localSecret) {
        this.localSecret = localSecret;
    }

    public @Nullable Set<String> getContentTypes() {
        return contentTypes;
    }

    public void setContentTypes(@Nullable Set<String> contentTypes) {
        this.contentTypes = contentTypes;
    }
}
