package io.github.boundedupload.micrometer;

import io.github.boundedupload.direct.DirectUploads;
import io.github.boundedupload.direct.GrantRefusedException;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;

/**
 * The meters of {@link DirectUploads}, read from {@link DirectUploads#stats()}, tagged {@code uploader} (the name of
 * the uploader that confirms):
 * <ul>
 *   <li>{@code bounded.upload.direct.granted}: files granted;</li>
 *   <li>{@code bounded.upload.direct.refused}: requests for grants and confirms refused, tagged {@code reason} (each
 *       bound: {@code files-per-request}, {@code bytes-per-file}, {@code bytes-per-request},
 *       {@code outstanding-per-caller}; and {@code content-type}, {@code checksum}, {@code storage-limit},
 *       {@code not-the-callers}, {@code ids}, {@code being-confirmed}), every reason registered at zero.</li>
 * </ul>
 * What the confirms copy is measured as any batch of the uploader. Requires micrometer-core on the class path.
 * Changes when a meter of direct uploads, or what it measures, changes.
 *
 * <pre>{@code
 * new DirectUploadsMeters(direct, "attachments").bindTo(registry);
 * }</pre>
 */
public final class DirectUploadsMeters implements MeterBinder {

    private final DirectUploads direct;
    private final String uploaderName;

    /**
     * Meters of one {@link DirectUploads}.
     *
     * @param direct the direct uploads
     * @param uploaderName the name of their uploader, the {@code uploader} tag
     */
    public DirectUploadsMeters(DirectUploads direct, String uploaderName) {
        this.direct = Objects.requireNonNull(direct, "direct");
        this.uploaderName = Objects.requireNonNull(uploaderName, "uploaderName");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("bounded.upload.direct.granted", direct, d -> d.stats().granted())
                .description("Files granted for direct uploads").tag("uploader", uploaderName).register(registry);
        for (GrantRefusedException.Reason reason : GrantRefusedException.Reason.values()) {
            FunctionCounter.builder("bounded.upload.direct.refused", direct,
                    d -> d.stats().refused().getOrDefault(reason, 0L))
                    .description("Requests for grants, and confirms, of direct uploads refused")
                    .tag("uploader", uploaderName).tag("reason", reason.tag()).register(registry);
        }
    }
}
