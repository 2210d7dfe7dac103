package io.github.boundedupload.examples.studyweek;

import java.util.List;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;

/** The failure paths on the default set-up: H2 in a file, the local disk. */
@Import(TestStorage.class)
class DefaultProfileTests extends FailurePathsContract {

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
