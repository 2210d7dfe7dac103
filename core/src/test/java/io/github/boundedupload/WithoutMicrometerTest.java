package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Micrometer is optional: the core runs a batch in a class loader that cannot see it. */
class WithoutMicrometerTest {

    /** Runs in the isolated class loader. */
    public static class Probe {
        public static int upload(String root) throws Exception {
            try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(
                    new io.github.boundedupload.local.LocalFileUploader(java.nio.file.Path.of(root)))) {
                return uploader.uploadAll(List.of(Attachment.of("a.txt", new byte[3]),
                        Attachment.of("b.txt", new byte[4]))).storedObjects().size();
            }
        }
    }

    @Test
    void aBatchRunsWithNoMicrometerOnTheClassPath(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.contains("micrometer")) {
                urls.add(new File(entry).toURI().toURL());
            }
        }
        try (URLClassLoader isolated = new URLClassLoader(urls.toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader())) {
            assertThatThrownBy(() -> isolated.loadClass("io.micrometer.core.instrument.MeterRegistry"))
                    .isInstanceOf(ClassNotFoundException.class);
            Method upload = isolated.loadClass(Probe.class.getName()).getMethod("upload", String.class);

            assertThat(upload.invoke(null, dir.toString())).isEqualTo(2);
        }
    }
}
