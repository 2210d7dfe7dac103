package io.github.boundedupload.examples.studyweek;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The application as it runs by default (H2 in a file, the local disk), on a random port, with the small limits of
 * {@code application-test.yml} and the {@link GatedStorage} in front of the disk. Every test class that extends this
 * shares one application context. Each test uses a study id of its own, so tests can count rows and files.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@Import(TestStorage.class)
abstract class AppTest {

    /** One data directory for the shared context, inside the build directory. */
    static final Path DATA = Path.of("target", "test-data", UUID.randomUUID().toString()).toAbsolutePath();

    private static final AtomicLong STUDY_IDS = new AtomicLong(System.nanoTime() % 1_000_000 * 1000);

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) {
        registry.add("study-week.data-dir", DATA::toString);
    }

    @LocalServerPort
    int port;

    @Autowired
    GatedStorage storage;

    @Autowired
    JdbcTemplate jdbc;

    Api api;
    long studyId;

    @BeforeEach
    void setUp() {
        api = new Api(port);
        studyId = STUDY_IDS.incrementAndGet();
    }

    @AfterEach
    void openTheStorage() {
        storage.reset();
    }

    String weeksPath() {
        return "/api/studies/" + studyId + "/weeks";
    }

    /** The weeks of this test's study in the database. */
    long weekRows() {
        return jdbc.queryForObject("select count(*) from study_week where study_id = ?", Long.class, studyId);
    }

    /** The attachment rows of this test's study in the database. */
    long attachmentRows() {
        return jdbc.queryForObject("select count(*) from week_attachment a join study_week w on a.week_id = w.id"
                + " where w.study_id = ?", Long.class, studyId);
    }

    /** The files of this test's study in the storage directory. */
    List<Path> storedFiles() {
        Path studyDir = DATA.resolve("uploads").resolve("studies").resolve(Long.toString(studyId));
        if (!Files.isDirectory(studyDir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(studyDir)) {
            return files.filter(Files::isRegularFile).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
