package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's quick start is the first thing a newcomer copies: its Java block is compiled as it stands, with its own
 * imports, and run in a JVM of its own in a directory that holds the file it names, as a newcomer's would.
 */
class ReadmeQuickStartTest {

    private static final Pattern JAVA_BLOCK = Pattern.compile("(?s)## Quick start.*?```java\\n(.*?)```");
    private static final Pattern CLASS_NAME = Pattern.compile("public class (\\w+)");

    @TempDir
    Path work;

    @Test
    void theQuickStartCompilesRunsAndStoresBothFiles() throws Exception {
        Path root = projectRoot();
        Matcher block = JAVA_BLOCK.matcher(Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8));
        assertThat(block.find()).as("a ```java block under '## Quick start' in README.md").isTrue();
        String source = block.group(1);
        Matcher name = CLASS_NAME.matcher(source);
        assertThat(name.find()).as("the quick start is a whole class, imports included").isTrue();

        Path classes = Files.createDirectories(work.resolve("classes"));
        Path file = Files.writeString(work.resolve(name.group(1) + ".java"), source, StandardCharsets.UTF_8);
        String classPath = System.getProperty("java.class.path");
        Path compilerOutput = work.resolve("javac.txt");
        Process javac = new ProcessBuilder(jdkTool("javac"), "-d", classes.toString(), "-cp", classPath,
                file.toString()).redirectErrorStream(true).redirectOutput(compilerOutput.toFile()).start();
        assertThat(javac.waitFor(2, TimeUnit.MINUTES)).as("javac ends").isTrue();
        assertThat(javac.exitValue()).as("javac exit code; output: %s", Files.readString(compilerOutput)).isZero();

        Path dir = Files.createDirectories(work.resolve("app"));
        Path png = Files.copy(root.resolve("examples/plain-java/sample-files/Algorithm.png"),
                dir.resolve("Algorithm.png"));
        Path output = work.resolve("output.txt");
        Process run = new ProcessBuilder(jdkTool("java"), "-cp",
                classes + File.pathSeparator + classPath, name.group(1))
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        assertThat(run.waitFor(2, TimeUnit.MINUTES)).as("the quick start ends").isTrue();
        List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
        assertThat(run.exitValue()).as("exit code; output: %s", lines).isZero();

        // One line per attachment, in input order: "<key> <size> bytes", each object stored under uploads/.
        assertThat(lines).filteredOn(line -> line.endsWith(" bytes")).hasSize(2);
        List<String> printed = lines.stream().filter(line -> line.endsWith(" bytes")).toList();
        assertThat(printed.get(0)).matches(".*-Algorithm\\.png " + Files.size(png) + " bytes");
        assertThat(printed.get(1)).matches(".*-notes\\.txt 6 bytes");
        Path stored = dir.resolve("uploads").resolve(printed.get(0).substring(0, printed.get(0).indexOf(' ')));
        assertThat(stored).hasSameBinaryContentAs(png);
        Path notes = dir.resolve("uploads").resolve(printed.get(1).substring(0, printed.get(1).indexOf(' ')));
        assertThat(notes).hasContent("week 3");
    }

    private static String jdkTool(String name) {
        return Path.of(System.getProperty("java.home"), "bin", name).toString();
    }

    private static Path projectRoot() throws IOException {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("core"))) {
                return dir;
            }
        }
        throw new IOException("no project root with README.md above " + Path.of("").toAbsolutePath());
    }
}
