package io.github.boundedupload.examples.plainjava;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UploadDirectoryTests {

    static final Path SAMPLES = Path.of("sample-files");

    @Test
    void uploadsEveryFileToTheLocalDisk(@TempDir Path target) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        int status = UploadDirectory.run(new String[] { SAMPLES.toString(), "--to", target.toString() },
                new PrintStream(out, true, StandardCharsets.UTF_8));

        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(status).as(printed).isZero();
        assertThat(printed).contains("Uploading 4 files (0.4 KiB) from sample-files to LocalFileUploader[")
                .contains("\r[4/4] 0.4 KiB of 0.4 KiB, 0 in flight, 0 failed")
                .containsPattern("Done: 4 of 4 files stored, 0\\.4 KiB in \\d+ ms, 0 failed");
        for (String name : new String[] { "AWS.png", "Algorithm.png", "progress.csv", "week-3-notes.txt" }) {
            assertThat(target.resolve("sample-files").resolve(name)).hasSameBinaryContentAs(SAMPLES.resolve(name));
        }
    }

    @Test
    void wrongArgumentsPrintTheUsage() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        int status = UploadDirectory.run(new String[] { "sample-files", "--region", "us-east-1" },
                new PrintStream(out, true, StandardCharsets.UTF_8));

        assertThat(status).isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("--region and --s3-endpoint need --bucket\nusage:");
    }
}
