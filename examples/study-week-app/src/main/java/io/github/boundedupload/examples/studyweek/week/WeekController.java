package io.github.boundedupload.examples.studyweek.week;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.jdbc.DeferredAttachment;
import io.github.boundedupload.spring.web.MultipartAttachments;
import io.github.boundedupload.examples.studyweek.progress.UploadProgress;
import io.github.boundedupload.examples.studyweek.storage.AttachmentStore;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.core.io.InputStreamResource;
import org.springframework.core.io.Resource;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.MediaTypeFactory;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.multipart.support.MissingServletRequestPartException;

/**
 * The weeks of a study: create one with its files, read it, download a file. Changes when the API's week endpoints
 * change.
 *
 * <pre>
 * curl -F title='Week 3' -F startDate=2026-11-16 -F endDate=2026-11-22 \
 *      -F files=@Algorithm.png -F files=@notes.txt http://localhost:8080/api/studies/42/weeks
 * </pre>
 */
@RestController
@RequestMapping("/api/studies/{studyId}/weeks")
public class WeekController {

    private final WeekService weeks;
    private final AttachmentStore store;
    private final UploadProgress progress;

    WeekController(WeekService weeks, AttachmentStore store, UploadProgress progress) {
        this.weeks = weeks;
        this.store = store;
        this.progress = progress;
    }

    /**
     * Creates a week with its files. Not {@code @Transactional}, on purpose: see {@link WeekService}.
     *
     * @param studyId the study
     * @param form the week's fields
     * @param files the files (form field {@code files}, repeated)
     * @param uploadId an id the client chose, to follow the upload at {@code /api/uploads/{uploadId}}; optional
     * @return 201 with the week
     */
    @PostMapping(consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    @SuppressWarnings("try") // the tracking lasts as long as its block; the block does not need the resource itself
    ResponseEntity<WeekView> create(@PathVariable long studyId, @Valid NewWeek form,
            @RequestParam(name = "files", required = false) List<MultipartFile> files,
            @RequestHeader(name = UploadProgress.HEADER, required = false) String uploadId)
            throws MissingServletRequestPartException {
        List<Attachment> attachments = attachments(studyId, files);
        if (attachments.isEmpty()) {
            throw new MissingServletRequestPartException("files");
        }
        StudyWeek week;
        try (UploadProgress.Tracking tracking = progress.track(uploadId, attachments)) {
            week = weeks.create(studyId, form, attachments);
        }
        WeekView view = WeekView.of(week);
        return ResponseEntity.created(URI.create(view.url())).body(view);
    }

    /**
     * Creates a week and answers at once, before its files are stored (source 003's "respond first"): 202 with the
     * week, its attachments {@code PENDING}; read the week again to see them {@code STORED} (or {@code FAILED}).
     *
     * @param studyId the study
     * @param form the week's fields
     * @param files the files (form field {@code files}, repeated)
     * @return 202 with the week
     */
    @PostMapping(consumes = MediaType.MULTIPART_FORM_DATA_VALUE, params = "deferred=true")
    ResponseEntity<WeekView> createDeferred(@PathVariable long studyId, @Valid NewWeek form,
            @RequestParam(name = "files", required = false) List<MultipartFile> files)
            throws MissingServletRequestPartException {
        List<Attachment> attachments = attachments(studyId, files);
        if (attachments.isEmpty()) {
            throw new MissingServletRequestPartException("files");
        }
        WeekView view = WeekView.of(weeks.createDeferred(studyId, form, attachments));
        return ResponseEntity.accepted().location(URI.create(view.url())).body(view);
    }

    /**
     * A week whose files the browser sent straight to the storage, each on a grant of {@code POST
     * /api/studies/{id}/grants}.
     *
     * @param week the week's fields
     * @param grants the grants' ids, in the order the files are to be listed
     */
    record DirectWeek(@Valid @NotNull NewWeek week, @NotEmpty @Size(max = 100) List<@NotNull String> grants) {
    }

    /**
     * Creates a week from files sent directly to the storage (profile {@code localstack}): its grants are confirmed
     * and the week saved in one transaction ({@link WeekService#createDirect}).
     *
     * @param studyId the study
     * @param direct the week's fields and its files' grants
     * @return 201 with the week
     */
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<WeekView> createDirect(@PathVariable long studyId, @Valid @RequestBody DirectWeek direct) {
        if (!weeks.directUploads()) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "Direct uploads are off.");
        }
        WeekView view = WeekView.of(weeks.createDirect(studyId, direct.week(), direct.grants()));
        return ResponseEntity.created(URI.create(view.url())).body(view);
    }

    /**
     * The chosen files of the request, in order, streamed from the request's temporary files (opened again if the
     * storage client retries), never read into memory, with the study id for the key strategy. Their names go to the
     * uploader as they came: the uploader refuses dangerous names and sanitises the rest before any of it reaches a
     * storage key.
     */
    private static List<Attachment> attachments(long studyId, List<MultipartFile> files) {
        return MultipartAttachments.of(files).stream()
                .map(attachment -> attachment.toBuilder().metadata(WeekService.STUDY_ID, Long.toString(studyId))
                        .build())
                .toList();
    }

    /**
     * Lists a study's weeks, latest first, each with its files, as the page shows them.
     *
     * @param studyId the study
     * @return its weeks, empty when it has none
     */
    @GetMapping
    List<WeekView> list(@PathVariable long studyId) {
        return weeks.list(studyId).stream().map(WeekView::of).toList();
    }

    /**
     * Reads a week.
     *
     * @param studyId the study
     * @param weekId the week
     * @return the week with its attachments' names, sizes and download URLs
     */
    @GetMapping("/{weekId}")
    WeekView get(@PathVariable long studyId, @PathVariable long weekId) {
        return WeekView.of(weeks.find(studyId, weekId));
    }

    /**
     * Downloads a file, streamed from the storage in use (local disk or S3).
     *
     * @param studyId the study
     * @param weekId the week
     * @param attachmentId the file
     * @return the content, offered for saving under its original name
     * @throws IOException when the storage cannot be read
     */
    @GetMapping("/{weekId}/attachments/{attachmentId}")
    ResponseEntity<Resource> download(@PathVariable long studyId, @PathVariable long weekId,
            @PathVariable long attachmentId) throws IOException {
        WeekAttachment attachment = weeks.findAttachment(studyId, weekId, attachmentId);
        if (attachment.getState() != DeferredAttachment.State.STORED) {
            throw new ResponseStatusException(HttpStatus.CONFLICT, "The file is " + attachment.getState()
                    + ", not stored: read the week for its state.");
        }
        // Opened before the response starts, so that a storage failure still gets a proper error response.
        Resource content = new InputStreamResource(store.open(attachment.getStorageKey()));
        return ResponseEntity.ok()
                .contentType(MediaTypeFactory.getMediaType(attachment.getFileName())
                        .orElse(MediaType.APPLICATION_OCTET_STREAM))
                .contentLength(attachment.getSize())
                .header(HttpHeaders.CONTENT_DISPOSITION, contentDisposition(attachment.getFileName()))
                // Uploaded HTML or SVG is saved, never rendered as a page of this site.
                .header("X-Content-Type-Options", "nosniff")
                .header("Content-Security-Policy", "sandbox")
                .body(content);
    }

    /**
     * {@code attachment}, so that browsers save the file instead of showing it. Printable ASCII names are sent
     * quoted (quotes escaped); others in RFC 6266's {@code filename*} UTF-8 form. The uploader has already refused
     * names with control characters, so nothing can break out of the header.
     */
    static String contentDisposition(String fileName) {
        boolean printableAscii = fileName.chars().allMatch(c -> c >= 0x20 && c < 0x7f);
        ContentDisposition.Builder builder = ContentDisposition.attachment();
        return (printableAscii ? builder.filename(fileName) : builder.filename(fileName, StandardCharsets.UTF_8))
                .build().toString();
    }
}
