package io.github.boundedupload.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Untrusted text in messages ({@link SafeText}) and the rules of file names ({@link Keys}). */
class SafeTextAndKeysTest {

    @Test
    void quoteEscapesWhatCouldForgeALogLineOrHideAnExtension() {
        assertThat(SafeText.quote("a\nINFO fake line")).isEqualTo("'a\\u000AINFO fake line'");
        assertThat(SafeText.quote("invoice\u202Efdp.exe")).isEqualTo("'invoice\\u202Efdp.exe'");
        assertThat(SafeText.quote("it's")).isEqualTo("'it\\'s'");
        assertThat(SafeText.quote("x".repeat(100))).hasSize(80 + 2 + 3).endsWith("...'");
        assertThat(SafeText.quote("사진.png")).isEqualTo("'사진.png'");
    }

    @Test
    void unicodeFileNamesAreFineButBrokenUnicodeIsNot() {
        assertThat(Keys.fileNameProblem("스터디 사진 😀.png")).isNull();
        assertThat(Keys.fileNameProblem("bad\uD800.png")).isEqualTo("the file name is not valid Unicode");
    }

    @Test
    void fileNamesLongerThanFileSystemsAllowAreRefused() {
        assertThat(Keys.fileNameProblem("가".repeat(85))).isNull(); // 255 bytes
        assertThat(Keys.fileNameProblem("가".repeat(86))).isEqualTo("the file name is longer than 255 bytes");
    }
}
