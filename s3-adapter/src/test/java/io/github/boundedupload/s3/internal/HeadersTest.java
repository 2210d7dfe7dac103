package io.github.boundedupload.s3.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.s3.S3UploadOptions.ContentDisposition;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HeadersTest {

    @Test
    void plainAsciiNamesNeedNoExtendedParameter() {
        assertThat(Headers.contentDisposition(ContentDisposition.ATTACHMENT, "report-2026.pdf"))
                .isEqualTo("attachment; filename=\"report-2026.pdf\"");
        assertThat(Headers.contentDisposition(ContentDisposition.INLINE, "a b.png"))
                .isEqualTo("inline; filename=\"a b.png\"");
        assertThat(Headers.contentDisposition(ContentDisposition.ATTACHMENT, "semi;colon,comma=.txt"))
                .as("separators inside the quoted string are text").isEqualTo("attachment; filename=\"semi;colon,comma=.txt\"");
        assertThat(Headers.contentDisposition(ContentDisposition.NONE, "a.png")).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"스터디 3주차 자료.pdf", "quote\"back\\slash.txt", "100%.txt", "e\u0301te\u0301.txt",
            "emoji 😀.png"})
    void namesThatAreNotPlainAsciiGetAnExactExtendedParameterAndASafeFallback(String name) {
        String header = Headers.contentDisposition(ContentDisposition.ATTACHMENT, name);
        assertThat(header).matches("attachment; filename=\"[ -~&&[^\"\\\\%]]*\"; filename\\*=UTF-8''[A-Za-z0-9!#$&+\\-.^_`|~%]+");
        String encoded = header.substring(header.indexOf("UTF-8''") + 7);
        assertThat(URLDecoder.decode(encoded.replace("+", "%2B"), StandardCharsets.UTF_8))
                .isEqualTo(java.text.Normalizer.normalize(name, java.text.Normalizer.Form.NFC));
    }

    @Test
    void nonAsciiMetadataIsSentAsEncodedWords() {
        Map<String, String> encoded = Headers.metadata(Map.of("plain", "hello world", "korean", "한글 메모",
                "looks-encoded", "=?UTF-8?B?aGk=?="));
        assertThat(encoded.get("plain")).isEqualTo("hello world");
        assertThat(decode(encoded.get("korean"))).isEqualTo("한글 메모");
        assertThat(encoded.get("looks-encoded")).startsWith("=?UTF-8?B?");
        assertThat(decode(encoded.get("looks-encoded"))).isEqualTo("=?UTF-8?B?aGk=?=");
    }

    private static String decode(String word) {
        assertThat(word).startsWith("=?UTF-8?B?").endsWith("?=");
        return new String(Base64.getDecoder().decode(word.substring(10, word.length() - 2)), StandardCharsets.UTF_8);
    }
}
