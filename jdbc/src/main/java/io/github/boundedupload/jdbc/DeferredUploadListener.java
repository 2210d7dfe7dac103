package io.github.boundedupload.jdbc;

/**
 * Hears how deferred attachments end: each outcome once, on the instance that recorded it, after it is committed.
 * (An instance that dies between the commit and the call does not call it: {@link DeferredUploads#attachments(String)}
 * tells the state in any case.) Called on the thread that ran the uploads: keep it short, and do not throw.
 * Changes when what the application hears of a deferred attachment's end changes.
 */
public interface DeferredUploadListener {

    /**
     * The attachment is stored under its key.
     *
     * @param attachment the attachment, {@link DeferredAttachment.State#STORED}
     */
    default void stored(DeferredAttachment attachment) {
    }

    /**
     * The attachment will not be stored: its deadline passed.
     *
     * @param attachment the attachment, {@link DeferredAttachment.State#FAILED}, with the reason
     */
    default void failed(DeferredAttachment attachment) {
    }
}
