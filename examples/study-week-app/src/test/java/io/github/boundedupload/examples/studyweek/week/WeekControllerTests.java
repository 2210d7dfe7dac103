package io.github.boundedupload.examples.studyweek.week;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WeekControllerTests {

    @Test
    void anAsciiNameIsQuotedWithItsQuotesEscaped() {
        assertThat(WeekController.contentDisposition("my \"notes\".txt"))
                .isEqualTo("attachment; filename=\"my \\\"notes\\\".txt\"");
    }

    @Test
    void anyOtherNameIsSentInUtf8() {
        assertThat(WeekController.contentDisposition("노트.txt"))
                .startsWith("attachment; ")
                .contains("filename*=UTF-8''%EB%85%B8%ED%8A%B8.txt");
    }
}
