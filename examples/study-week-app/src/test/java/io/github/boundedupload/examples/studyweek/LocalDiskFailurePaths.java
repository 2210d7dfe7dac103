package io.github.boundedupload.examples.studyweek;

import java.util.List;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;

/** The failure paths with the local disk as storage, whatever the database: the gate fails one upload. */
@Import(TestStorage.class)
abstract class LocalDiskFailurePaths extends FailurePathsContract {

    @Autowired
    GatedStorage storage;

    @Override
    List<String> storedKeys() {
        return keysOnDisk();
    }

    @Override
    void failTheUploadOf(String fileName) {
        storage.failAfterOthers(fileName, 2);
    }
}
