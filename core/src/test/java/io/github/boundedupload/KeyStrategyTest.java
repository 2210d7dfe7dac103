package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.boundedupload.support.Keys;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class KeyStrategyTest {

    @ParameterizedTest
    @CsvSource(delimiterString = " => ", quoteCharacter = '`', value = {
        "Algorithm.png => Algorithm.png",
        "my photo (1).JPG => my_photo__1_.JPG",
        ".htaccess => _htaccess",
        "스터디 3주차.pdf => 스터디_3주차.pdf",
        "été.txt => été.txt",
        "a<b>:c\"d|e?f*.txt => a_b__c_d_e_f_.txt",
        "'; DROP TABLE x;--.sql => ___DROP_TABLE_x_--.sql"})
    void sanitizeKeepsLettersDigitsDotsDashesAndUnderscores(String name, String expected) {
        assertThat(KeyStrategy.sanitize(name)).isEqualTo(expected);
    }

    @Test
    void sanitizeShortensLongNamesButKeepsTheExtension() {
        String sanitized = KeyStrategy.sanitize("x".repeat(300) + ".tar.gz");

        assertThat(sanitized).hasSize(120).endsWith("xxx.gz");
    }

    // ---- issue 11, defect 10: long non-Latin names fail with 502 -------------------------------------------

    @ParameterizedTest
    @CsvSource({
        "가, 80", // Hangul, 3 bytes a letter: 84 characters and 244 bytes with .png, the name that got a 502
        "𠀀, 63", // a CJK letter beyond the BMP, a surrogate pair: 4 bytes a letter
        "q\u0301, 84", // q and a combining acute (no precomposed form): 3 bytes, never cut apart
        "x, 250"})
    void sanitizedNamesStayWithinTheBytesOfAKeySegment(String unit, int times) {
        String letter = unit.replace("\\u0301", "\u0301");
        String name = letter.repeat(times) + ".png";
        String sanitized = KeyStrategy.sanitize(name);

        assertThat(Keys.utf8Length(sanitized)).isLessThanOrEqualTo(200);
        assertThat(sanitized).endsWith(".png");
        assertThat(Keys.fileNameProblem(sanitized)).isNull();
        String stem = sanitized.substring(0, sanitized.length() - ".png".length());
        assertThat(stem).isNotEmpty().isEqualTo(letter.repeat(stem.length() / letter.length()));
        String key = KeyStrategy.datedUuid("attachments").keyFor(Attachment.of(name, new byte[0]));
        assertThat(Keys.keyProblem(key)).isNull();
    }

    @Test
    void datedUuidKeysCarryThePrefixTheDayAUuidAndTheSanitizedName() {
        String key = KeyStrategy.datedUuid("attachments/").keyFor(Attachment.of("my file.png", new byte[0]));
        LocalDate today = LocalDate.now(ZoneOffset.UTC);

        assertThat(key).matches(String.format("attachments/%04d/%02d/%02d/[0-9a-f-]{36}-my_file\\.png",
                today.getYear(), today.getMonthValue(), today.getDayOfMonth()));
        assertThat(KeyStrategy.datedUuid("").keyFor(Attachment.of("a.png", new byte[0]))).doesNotStartWith("/");
    }

    @Test
    void fileNameKeysJoinThePrefix() {
        assertThat(KeyStrategy.fileName("avatars/42").keyFor(Attachment.of("me.png", new byte[0])))
                .isEqualTo("avatars/42/me.png");
        assertThat(KeyStrategy.fileName("").keyFor(Attachment.of("me.png", new byte[0]))).isEqualTo("me.png");
    }

    @Test
    void anInvalidPrefixIsRefused() {
        assertThatThrownBy(() -> KeyStrategy.datedUuid("../up")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid key prefix '../up': the key has a '..' segment");
        assertThatThrownBy(() -> KeyStrategy.fileName("/abs")).isInstanceOf(IllegalArgumentException.class);
    }
}
