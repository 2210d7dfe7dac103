package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.InvalidAttachmentException;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.local.LocalFileUploader;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Utilities;

/**
 * The URL of each key is worked out once per uploader, not by the SDK's endpoint rules per upload: it must be, to the
 * letter, the URL the SDK's own {@code S3Utilities.getUrl} gives, for every kind of key and addressing style.
 */
class S3LocationTest {

    /**
     * Keys that stress the encoding (slashes, dots, spaces, reserved and non-ASCII characters), each one the uploader
     * accepts: no key it refuses (a leading '/', an empty or dot segment, a backslash, a control character) reaches S3.
     */
    private static List<String> keys() throws IOException {
        List<String> keys = new ArrayList<>(List.of("a", "2026/11/26/3f1c-photo.png", "/leading", "a//b", "trailing/",
                "./a/../b", "space and+plus", "percent%20sign", "q?x=1&y=2#frag", "semi;colon,comma=eq", "tilde~_-.",
                "ünïcødé/写真.jpg", "emoji-😀", "brackets[1]{2}", "quote'\"`", "back\\slash", "colon:at@dollar$",
                "star*excl!paren()", "caret^pipe|lt<gt>", "tab\tchar", "a/%2F/b"));
        Random random = new Random(20261126);
        String alphabet = "abcXYZ019 /._-~!$&'()*+,;=:@%?#[]{}<>\"\\^`|éü写😀";
        for (int i = 0; i < 500; i++) {
            StringBuilder key = new StringBuilder();
            int length = 1 + random.nextInt(40);
            for (int c = 0; c < length; c++) {
                key.appendCodePoint(alphabet.codePointAt(alphabet.offsetByCodePoints(0,
                        random.nextInt(alphabet.codePointCount(0, alphabet.length())))));
            }
            keys.add(key.toString());
        }
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(
                new LocalFileUploader(Path.of("target", "s3-location-test")), UploaderConfig.defaults())) {
            keys.removeIf(key -> {
                try {
                    uploader.check(List.of(Attachment.builder("a.txt", AttachmentContent.ofBytes(new byte[1]))
                            .key(key).build()));
                    return false;
                } catch (InvalidAttachmentException refused) {
                    return true;
                }
            });
        }
        return keys;
    }

    @ParameterizedTest(name = "{0}, path style {1}, bucket {2}")
    @CsvSource({
        "http://127.0.0.1:4566, true, my-bucket",
        "http://127.0.0.1:4566, false, my-bucket",
        ", false, my-bucket",
        ", true, my-bucket",
        ", false, my.dotted.bucket",
        "https://s3.example.com:8443/base, true, my-bucket",
    })
    void everyKeyGetsTheUrlTheSdkGives(String endpoint, boolean pathStyle, String bucket) throws IOException {
        var builder = S3Client.builder().region(Region.EU_WEST_1)
                .credentialsProvider(AnonymousCredentialsProvider.create()).forcePathStyle(pathStyle);
        if (endpoint != null) {
            builder.endpointOverride(URI.create(endpoint));
        }
        try (S3Client client = builder.build()) {
            S3Utilities utilities = client.utilities();
            Function<String, URI> urls = S3Location.urls(utilities, bucket);
            List<String> keys = keys();
            assertThat(keys).hasSizeGreaterThan(300);
            for (String key : keys) {
                String expected = utilities.getUrl(g -> g.bucket(bucket).key(key)).toString();
                assertThat(urls.apply(key).toString()).as("key %s", key).isEqualTo(expected);
            }
        }
    }
}
