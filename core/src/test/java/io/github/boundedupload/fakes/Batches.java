package io.github.boundedupload.fakes;

import io.github.boundedupload.Attachment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Test batches. */
public final class Batches {

    private Batches() {
    }

    /** {@code count} small attachments named {@code <batch>-<i>.txt}, tagged with metadata {@code batch}. */
    public static List<Attachment> of(String batch, int count) {
        return of(batch, count, 16);
    }

    /** {@code count} attachments of {@code size} bytes each. */
    public static List<Attachment> of(String batch, int count, int size) {
        List<Attachment> attachments = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] content = new byte[size];
            byte[] label = (batch + "-" + i).getBytes(StandardCharsets.UTF_8);
            System.arraycopy(label, 0, content, 0, Math.min(label.length, size));
            attachments.add(Attachment.builder(batch + "-" + i + ".txt",
                    io.github.boundedupload.AttachmentContent.ofBytes(content)).metadata("batch", batch).build());
        }
        return attachments;
    }
}
