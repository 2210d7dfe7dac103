package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
