package io.github.boundedupload.internal;

import io.github.boundedupload.internal.queue.CallQueue;
import java.util.Arrays;
import java.util.Comparator;
import org.jspecify.annotations.Nullable;

/**
 * A batch's window: the uploads it has offered to the {@link CallQueue} and that have not ended, at most
 * {@code maxConcurrentUploadsPerBatch} at a time (one on its caller's thread), in no order; and the cursor of those not
 * offered yet. Guarded by the step lock. Changes when how a batch offers its uploads changes.
 *
 * <p><b>Largest first.</b> A batch offers its uploads by their weight (the bytes they count against
 * {@code maxBytesInFlight}: the content length, or the most an attachment may be when it is unknown), largest first,
 * uploads of equal weight in the batch's order (so a batch of one size goes in its order, with no sort). A batch ends
 * with its last upload, and a large file started last is sent while the rest of the batch is done, alone on the
 * connections: offered first, it runs while the small ones fill the other permits, and the batch ends with small
 * ones (longest job first, the classic bound on a makespan). Measured (docs/benchmarks.md, scenario M: 160 files of
 * 3 KB to 23 MB, 32 in flight, 30 ms away, versitygw, on a shared machine at a load of 13-21): in the batch's order,
 * this library's blocking uploads took 1.02x (0.94-2.01) the makespan of a plain pool of 32 on the same client, the
 * median of 7 rounds' ratios in one JVM; that pool given the same files largest first took 0.95x (0.81-1.16) its own
 * time in the batch's order (5 rounds); this library, largest first, 1.00x (0.72-1.08) the pool, 7 rounds (medians
 * 2.95 against 3.36 s). Positions below are places in that order; an upload's index is its place in the batch.
 */
final class Window {

    private final Upload[] uploads;
    /** The index of the upload offered at each position; {@code null}: the batch's order (all of one weight). */
    private final int @Nullable [] order;
    private final Upload[] live;
    /** Each upload's place in {@link #live}, by its index; -1 outside it. */
    private final int[] slots;
    private int liveCount;
    /** The cursor: uploads at positions before it were offered, or skipped by a stop. */
    private int next;
    /** How many uploads were ever offered: those a rollback or the release of keys must look at. */
    private int offered;

    Window(Upload[] uploads, int size) {
        this.uploads = uploads;
        this.order = largestFirst(uploads);
        this.live = new Upload[Math.min(uploads.length, size)];
        this.slots = new int[uploads.length];
        Arrays.fill(slots, -1);
    }

    /** Offers the next uploads to the queue, up to the window's size. */
    void fill(CallQueue<Call> queue) {
        while (liveCount < live.length && next < uploads.length) {
            Upload upload = at(next++);
            offered = next;
            slots[upload.index] = liveCount;
            live[liveCount++] = upload;
            queue.enqueue(upload);
        }
    }

    /** The upload offered at {@code position} (offered, or to be: below {@link #offered()} it was). */
    Upload at(int position) {
        return order == null ? uploads[position] : uploads[order[position]];
    }

    /** The indices of the uploads, largest weight first (stable); {@code null} when all weigh the same. */
    private static int @Nullable [] largestFirst(Upload[] uploads) {
        boolean same = true;
        for (int i = 1; i < uploads.length && same; i++) {
            same = uploads[i].weight == uploads[0].weight;
        }
        if (same) {
            return null;
        }
        Integer[] indices = new Integer[uploads.length];
        Arrays.setAll(indices, i -> i);
        Arrays.sort(indices, Comparator.comparingLong((Integer i) -> uploads[i].weight).reversed());
        return Arrays.stream(indices).mapToInt(Integer::intValue).toArray();
    }

    /** An upload ended (or was taken out before it started): its place is free. */
    void remove(Upload upload) {
        int slot = slots[upload.index];
        if (slot >= 0) {
            Upload last = live[--liveCount];
            live[slot] = last;
            slots[last.index] = slot;
            live[liveCount] = null;
            slots[upload.index] = -1;
        }
    }

    /** Nothing more is offered: the position of the first upload never offered (they will never start). */
    int close() {
        int from = next;
        next = uploads.length;
        return from;
    }

    /** How many uploads are in the window now. */
    int liveCount() {
        return liveCount;
    }

    /** The upload in place {@code slot} (below {@link #liveCount()}). */
    Upload live(int slot) {
        return live[slot];
    }

    /** Whether every upload was offered (or skipped) and none is in the window any more. */
    boolean empty() {
        return next >= uploads.length && liveCount == 0;
    }

    /** How many uploads were ever offered. */
    int offered() {
        return offered;
    }
}
