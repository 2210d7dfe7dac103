package io.github.boundedupload.internal;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work decided under the uploader's lock and done after unlocking, in the order it was decided: starting calls,
 * calling listeners, completing futures. Nothing slow or foreign runs under the lock. Only {@link Dispatcher} steps
 * make and run them. Changes when the way deferred work runs changes.
 */
final class Effects {

    private static final Logger LOG = LoggerFactory.getLogger(ConcurrentAttachmentUploader.class);

    private final List<Runnable> actions = new ArrayList<>(4);

    void add(Runnable action) {
        actions.add(action);
    }

    void run() {
        // By index: an action may add more (an executor that refuses a delete runs it on this thread).
        for (int i = 0; i < actions.size(); i++) {
            try {
                actions.get(i).run();
            } catch (RuntimeException e) {
                LOG.error("internal error in bounded-upload; please report it", e);
            }
        }
        actions.clear();
    }
}
