package io.github.boundedupload.internal.step;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work decided under the uploader's lock and done after unlocking, in the order it was decided: starting calls,
 * calling listeners, completing futures. Nothing slow or foreign runs under the lock. Only {@link StepLock} steps
 * make and run them. Most steps decide one or two things (the end of an upload starts the next): those are held
 * without a list, as every upload makes a step. Changes when the way deferred work runs changes.
 */
public final class Effects {

    private static final Logger LOG = LoggerFactory.getLogger(ConcurrentAttachmentUploader.class);

    private @Nullable Runnable first;
    private @Nullable Runnable second;
    private @Nullable List<Runnable> more;
    private int size;

    public void add(Runnable action) {
        if (size == 0) {
            first = action;
        } else if (size == 1) {
            second = action;
        } else {
            if (more == null) {
                more = new ArrayList<>();
            }
            more.add(action);
        }
        size++;
    }

    void run() {
        // By index: an action may add more (an executor that refuses a delete runs it on this thread).
        for (int i = 0; i < size; i++) {
            try {
                action(i).run();
            } catch (RuntimeException e) {
                LOG.error("internal error in bounded-upload; please report it", e);
            }
        }
        first = null;
        second = null;
        more = null;
        size = 0;
    }

    private Runnable action(int index) {
        return Objects.requireNonNull(index == 0 ? first : index == 1 ? second
                : Objects.requireNonNull(more).get(index - 2));
    }
}
