package io.github.boundedupload.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NamesTest {

    @Test
    void quoteEscapesWhatCouldForgeALogLineOrHideAnExtension() {
        assertThat(Names.quote("a\nINFO fake line")).isEqualTo("'a\\u000AINFO fake line'");
        assertThat(Names.quote("invoice\u202Efdp.exe")).isEqualTo("'invoice\\u202Efdp.exe'");
        assertThat(Names.quote("it's")).isEqualTo("'it\\'s'");
        assertThat(Names.quote("x".repeat(100))).hasSize(80 + 2 + 3).endsWith("...'");
        assertThat(Names.quote("사진.png")).isEqualTo("'사진.png'");
    }

    @Test
    void unicodeFileNamesAreFineButBrokenUnicodeIsNot() {
        assertThat(Names.fileNameProblem("스터디 사진 😀.png")).isNull();
        assertThat(Names.fileNameProblem("bad\uD800.png")).isEqualTo("the file name is not valid Unicode");
    }

    @Test
    void fileNamesLongerThanFileSystemsAllowAreRefused() {
        assertThat(Names.fileNameProblem("가".repeat(85))).isNull(); // 255 bytes
        assertThat(Names.fileNameProblem("가".repeat(86))).isEqualTo("the file name is longer than 255 bytes");
    }
}
