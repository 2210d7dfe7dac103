package io.github.boundedupload.benchmarks;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import java.util.List;

/**
 * What strategies 4 to 6 share: a batch is one {@code uploadAll} of this library's uploader, all or nothing.
 * Changes when how this library's strategies run a batch changes.
 */
abstract class LibraryUploads implements Strategy {

    protected final ConcurrentAttachmentUploader uploader;

    protected LibraryUploads(ConcurrentAttachmentUploader uploader) {
        this.uploader = uploader;
    }

    @Override
    public void upload(List<Item> items) {
        uploader.uploadAll(items.stream().map(Item::attachment).toList()); // all or nothing: throws on a failure
    }
}
