package io.github.boundedupload.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestDataTest {

    @Test
    void bytesStreamsAndFilesOfOneSeedAreTheSameContent(@TempDir Path dir) {
        int size = 200_003;
        byte[] bytes = TestData.bytes(42, size);
        assertThat(TestData.sha256(TestData.stream(42, size))).isEqualTo(TestData.sha256(bytes));
        assertThat(TestData.sha256(TestData.file(dir.resolve("f"), 42, size))).isEqualTo(TestData.sha256(bytes));
        assertThat(TestData.bytes(43, size)).isNotEqualTo(bytes);
    }
}
