package io.github.boundedupload.benchmarks;

import java.util.List;

/**
 * One way of uploading a batch. Built once per measured JVM, then given batch after batch. Changes when what the
 * harness asks of a strategy changes.
 */
interface Strategy extends AutoCloseable {

    /**
     * Uploads every item and returns when all are stored.
     *
     * @param items the batch
     * @throws Exception when any upload failed
     */
    void upload(List<Item> items) throws Exception;

    /** Closes the clients, pools and uploaders the strategy built. */
    @Override
    void close();
}
