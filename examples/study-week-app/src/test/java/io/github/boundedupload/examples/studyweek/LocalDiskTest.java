package io.github.boundedupload.examples.studyweek;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;

/** The application as it runs by default (H2 in a file, the local disk), with the test's gate in front of the disk. */
@Import(TestStorage.class)
abstract class LocalDiskTest extends AppTest {

    @Autowired
    GatedStorage storage;
}
