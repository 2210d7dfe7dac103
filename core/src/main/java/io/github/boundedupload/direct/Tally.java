package io.github.boundedupload.direct;

import io.github.boundedupload.direct.GrantRefusedException.Reason;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/** What a {@link DirectUploads} granted and refused, by reason: its stats and meters. Changes when a count is added. */
final class Tally {

    private final LongAdder granted = new LongAdder();
    private final Map<Reason, LongAdder> refused = new EnumMap<>(Reason.class);

    Tally() {
        for (Reason reason : Reason.values()) {
            refused.put(reason, new LongAdder());
        }
    }

    /** Runs the work, its refusal counted by reason. */
    <T> T counted(Supplier<T> work) {
        try {
            return work.get();
        } catch (GrantRefusedException e) {
            Objects.requireNonNull(refused.get(e.reason())).increment();
            throw e;
        }
    }

    void granted(int files) {
        granted.add(files);
    }

    DirectUploads.Stats stats() {
        Map<Reason, Long> byReason = new EnumMap<>(Reason.class);
        refused.forEach((reason, count) -> byReason.put(reason, count.sum()));
        return new DirectUploads.Stats(granted.sum(), byReason);
    }
}
