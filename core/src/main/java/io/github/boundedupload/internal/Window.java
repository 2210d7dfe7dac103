package io.github.boundedupload.internal;

import io.github.boundedupload.internal.queue.CallQueue;
import java.util.Arrays;
import java.util.Comparator;

/**
 * A batch's window: the uploads it has offered to the {@link CallQueue} and that have not ended, at most
 * {@code maxConcurrentUploadsPerBatch} at a time (one on its caller's thread), in no order; and the cursor of those not
 * offered yet. Guarded by the step lock. Changes when how a batch offers its uploads changes.
 *
 * <p><b>Largest first.</b> The uploads are offered by weight (their length, or the largest allowed when it is
 * unknown), the heaviest first, those of equal weight in the batch's order. A batch ends with its last upload: a large
 * file offered last runs alone at the end while the connections idle. On scenario M's mixed batch (docs/benchmarks.md)
 * the gain is within the instrument's error (a plain pool given the files largest first: 0.96 and 0.99 of its time in
 * the batch's order, in two runs); it is for batches whose big file comes last. Results keep the batch's order.
 */
final class Window {

    private static final Comparator<Upload> LARGEST_FIRST = Comparator.comparingLong((Upload u) -> u.weight)
            .reversed();

    /** The batch's uploads in the order they are offered. */
    private final Upload[] uploads;
    private final Upload[] live;
    private int liveCount;
    /** The cursor: uploads before it were offered, or skipped by a stop. */
    private int next;
    /** How many uploads were ever offered: those a rollback or the release of keys must look at. */
    private int offered;

    Window(Upload[] uploads, int size) {
        this.uploads = uploads.clone();
        Arrays.sort(this.uploads, LARGEST_FIRST); // stable: equal weights keep the batch's order
        this.live = new Upload[Math.min(uploads.length, size)];
    }

    /** Offers the next uploads to the queue, up to the window's size. */
    void fill(CallQueue<Call> queue) {
        while (liveCount < live.length && next < uploads.length) {
            Upload upload = uploads[next++];
            offered = next;
            upload.windowSlot(liveCount);
            live[liveCount++] = upload;
            queue.enqueue(upload);
        }
    }

    /** An upload ended (or was taken out before it started): its place is free. */
    void remove(Upload upload) {
        int slot = upload.windowSlot();
        if (slot >= 0) {
            Upload last = live[--liveCount];
            live[slot] = last;
            last.windowSlot(slot);
            live[liveCount] = null;
            upload.windowSlot(-1);
        }
    }

    /** The upload offered {@code place}-th (from 0), or to be: {@link #offered()} and {@link #close()} count places. */
    Upload inOfferOrder(int place) {
        return uploads[place];
    }

    /** Nothing more is offered: the place of the first upload never offered (they will never start). */
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
