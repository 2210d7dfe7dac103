package io.github.boundedupload;

/**
 * The upload journal no longer lets this process act on the batch: the fleet took this process for dead (it was
 * paused, or cut off from the journal's database, for longer than the journal's liveness timeout), or the batch's lease
 * ended, and another process removes what the batch stored. An attachment fails with this exception when its upload or
 * its delete was not started for that reason, or when its upload returned after that: the journal removes that object
 * itself (unless its key holds what another batch stored since), and the attachment is reported
 * {@link UploadResult.Status#POSSIBLY_STORED} until then. Nothing of the batch is kept. Changes when what the uploader
 * reports of a batch it no longer owns changes.
 */
public class BatchTakenOverException extends UploadException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception for a step the uploader did not take, or an object it no longer owns.
     *
     * @param message which attachment, and what was not done
     */
    public BatchTakenOverException(String message) {
        super(message, null);
    }
}
