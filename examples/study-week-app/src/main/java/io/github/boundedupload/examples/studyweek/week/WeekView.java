package io.github.boundedupload.examples.studyweek.week;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * A week as the API shows it. Attachment URLs point to this application's download endpoint, never to the storage:
 * a storage location may be a local path or a presigned URL, neither of which a client should see. Changes when what
 * the API shows of a week changes.
 *
 * @param id the week's id
 * @param studyId the study
 * @param title the title
 * @param content what the week is about
 * @param startDate the first day
 * @param endDate the last day
 * @param createdAt when it was created
 * @param url where to read the week again: a path on this server
 * @param attachments the files, in the order they were sent
 */
public record WeekView(long id, long studyId, String title, String content, LocalDate startDate, LocalDate endDate,
        Instant createdAt, String url, List<AttachmentView> attachments) {

    /**
     * A file of a week.
     *
     * @param id the attachment's id
     * @param fileName the name it was uploaded with
     * @param size its size in bytes
     * @param url where to download it, once stored
     * @param state STORED; or, for a week created deferred, PENDING until its upload ends, then STORED or FAILED
     */
    public record AttachmentView(long id, String fileName, long size, String url, String state) {
    }

    /**
     * The view of a week, with its URLs as paths on this server (context path included), never absolute: the host of
     * an absolute URL would come from the request's {@code Host} header, which the client writes (a cache or a link in
     * a mail would then point wherever a client said).
     *
     * @param week the week, with its attachments loaded
     * @return the view
     */
    static WeekView of(StudyWeek week) {
        String url = url("/api/studies/{studyId}/weeks/{weekId}", week.getStudyId(), week.getId());
        List<AttachmentView> attachments = week.getAttachments().stream()
                .map(a -> new AttachmentView(a.getId(), a.getFileName(), a.getSize(),
                        url + "/attachments/" + a.getId(), a.getState().name()))
                .toList();
        return new WeekView(week.getId(), week.getStudyId(), week.getTitle(), week.getContent(), week.getStartDate(),
                week.getEndDate(), week.getCreatedAt(), url, attachments);
    }

    private static String url(String path, Object... variables) {
        String contextPath = ServletUriComponentsBuilder.fromCurrentContextPath().build().getPath();
        return UriComponentsBuilder.fromPath(contextPath == null ? "" : contextPath).path(path)
                .buildAndExpand(variables).toUriString();
    }
}
