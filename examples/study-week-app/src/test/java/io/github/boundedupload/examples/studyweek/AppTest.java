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
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The application on a random port, with the small limits of {@code application-test.yml}, its data (the H2 file, the
 * local storage) in a directory of its own. Test classes with the same configuration share one application context;
 * each test uses a study id of its own, so that it can count its rows and files.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@Import(UploadSignals.class)
abstract class AppTest {

    /** The data directory of this JVM's contexts, inside the build directory. */
    static final Path DATA = Path.of("target", "test-data", UUID.randomUUID().toString()).toAbsolutePath();

    private static final AtomicLong STUDY_IDS = new AtomicLong(System.nanoTime() % 1_000_000 * 1000);

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) {
        registry.add("study-week.data-dir", DATA::toString);
    }

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    UploadSignals signals;

    @Autowired
    ObjectProvider<GatedStorage> gate;

    Api api;
    long studyId;

    @BeforeEach
    void newStudy() {
        api = new Api(port);
        studyId = STUDY_IDS.incrementAndGet();
    }

    @AfterEach
    void openTheStorage() {
        gate.ifAvailable(GatedStorage::reset);
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

    /** The storage keys the database holds for this test's study. */
    List<String> keysInTheDatabase() {
        return jdbc.queryForList("select a.storage_key from week_attachment a join study_week w on a.week_id = w.id"
                + " where w.study_id = ?", String.class, studyId);
    }

    /** The keys of this test's study on the local disk, when the application stores there. */
    List<String> keysOnDisk() {
        Path uploads = DATA.resolve("uploads");
        Path study = uploads.resolve("studies").resolve(Long.toString(studyId));
        if (!Files.isDirectory(study)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(study)) {
            return files.filter(Files::isRegularFile).map(file -> uploads.relativize(file).toString()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
