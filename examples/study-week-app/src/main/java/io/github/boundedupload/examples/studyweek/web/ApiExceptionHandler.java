package io.github.boundedupload.examples.studyweek.web;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.InvalidAttachmentException;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploadTimeoutException;
import io.github.boundedupload.UploaderClosedException;
import io.github.boundedupload.UploaderSaturatedException;
import io.github.boundedupload.examples.studyweek.StudyWeekProperties;
import io.github.boundedupload.examples.studyweek.week.DuplicateWeekException;
import io.github.boundedupload.examples.studyweek.week.WeekNotFoundException;
import io.github.boundedupload.spring.web.MultipartAttachments;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.boot.servlet.autoconfigure.MultipartProperties;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.FieldError;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.multipart.MultipartHttpServletRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.util.WebUtils;

/**
 * Turns every failure into an RFC 9457 problem detail ({@code application/problem+json}) with a message a client can
 * act on, and the request id to quote. Server-side details (storage keys, paths, exception messages of the storage
 * client, stack traces) go to the log only.
 *
 * <p>Spring MVC's own exceptions (missing parts, invalid fields, the multipart size limits) are handled by
 * {@link ResponseEntityExceptionHandler}; a few of its messages are made clearer here.
 */
@RestControllerAdvice
class ApiExceptionHandler extends ResponseEntityExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ApiExceptionHandler.class);

    private final ConcurrentAttachmentUploader uploader;
    private final StudyWeekProperties properties;
    private final MultipartProperties multipart;

    ApiExceptionHandler(ConcurrentAttachmentUploader uploader, StudyWeekProperties properties,
            MultipartProperties multipart) {
        this.uploader = uploader;
        this.properties = properties;
        this.multipart = multipart;
    }

    /**
     * The uploader refused the files before uploading any: too many, too large, or a dangerous name. The library's
     * message names each offending file (quoted and escaped) and why. Its problems carry a position and a reason, not
     * a kind: a file is "too large" (413) when the request's file at that position is over the uploader's limit.
     */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> invalidAttachments(InvalidAttachmentException e, HttpServletRequest request) {
        List<InvalidAttachmentException.Problem> problems = e.problems();
        boolean tooMany = problems.stream().anyMatch(p -> p.index() < 0);
        boolean tooLarge = !tooMany && problems.stream().allMatch(p -> isTooLarge(request, p.index()));
        HttpStatus status = tooLarge ? HttpStatus.CONTENT_TOO_LARGE : HttpStatus.BAD_REQUEST;
        ProblemDetail problem = problem(status, tooMany ? "Too many files" : tooLarge ? "File too large"
                : "Invalid files", e.getMessage());
        problem.setProperty("files", problems.stream().map(p -> {
            Map<String, Object> file = new LinkedHashMap<>();
            file.put("index", p.index());
            file.put("reason", p.reason());
            return file;
        }).toList());
        if (tooMany) {
            problem.setProperty("maxFiles", uploader.config().maxAttachmentsPerBatch());
        }
        if (tooLarge) {
            problem.setProperty("maxFileSize", uploader.config().maxAttachmentSize());
        }
        return ResponseEntity.status(status).body(problem);
    }

    /** Whether the file at this index of the request is over the uploader's size limit. */
    private boolean isTooLarge(HttpServletRequest request, int index) {
        MultipartHttpServletRequest multipartRequest = WebUtils.getNativeRequest(request,
                MultipartHttpServletRequest.class);
        if (multipartRequest == null || index < 0) {
            return false;
        }
        List<Attachment> files = MultipartAttachments.of(multipartRequest.getFiles("files"));
        return index < files.size()
                && files.get(index).content().length().orElse(0) > uploader.config().maxAttachmentSize();
    }

    /** Load, not a fault: the client should come back later. Never a 500. */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> saturated(UploaderSaturatedException e) {
        LOG.warn("refused a request: {}", e.getMessage());
        ProblemDetail problem = problem(HttpStatus.TOO_MANY_REQUESTS, "Too many uploads",
                "The server is busy with other uploads and cannot take " + e.batchSize() + " more files now."
                        + " Nothing was stored; try again in " + properties.retryAfter().toSeconds() + " seconds.");
        return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS)
                .header(HttpHeaders.RETRY_AFTER, Long.toString(properties.retryAfter().toSeconds()))
                .body(problem);
    }

    /**
     * The storage failed or timed out. The library's message names keys and the storage client's errors: logged, not
     * sent. The client learns which of its files failed, and that nothing was kept.
     */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> batchFailed(BatchFailedException e) {
        LOG.warn("upload failed: {}", e.getMessage(), e);
        boolean timedOut = e.failures().stream()
                .allMatch(r -> r.failure().orElse(null) instanceof UploadTimeoutException) && !e.failures().isEmpty();
        HttpStatus status = timedOut ? HttpStatus.GATEWAY_TIMEOUT : HttpStatus.BAD_GATEWAY;
        ProblemDetail problem = problem(status, timedOut ? "Storage timed out" : "Storage failed",
                "The file storage " + (timedOut ? "did not answer in time" : "failed") + " while storing "
                        + e.failures().size() + " of " + e.result().size() + " files. Nothing was saved; "
                        + "try again later.");
        problem.setProperty("failedFiles", e.failures().stream().map(UploadResult::index).toList());
        return ResponseEntity.status(status).body(problem);
    }

    /** The application is shutting down. */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> closed(UploaderClosedException e) {
        return serviceUnavailable("Shutting down", "The server is shutting down. Nothing was saved; try again shortly.");
    }

    /** Any other upload failure: the library's messages carry no content or credentials, but may name keys. */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> uploadFailed(UploadException e) {
        LOG.warn("upload failed: {}", e.getMessage(), e);
        return ResponseEntity.status(HttpStatus.BAD_GATEWAY).body(problem(HttpStatus.BAD_GATEWAY, "Storage failed",
                "The file storage failed. Nothing was saved; try again later."));
    }

    /** A download could not be read from the storage. */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> storageUnreadable(IOException e) {
        LOG.warn("could not read from the storage", e);
        return ResponseEntity.status(HttpStatus.BAD_GATEWAY).body(problem(HttpStatus.BAD_GATEWAY, "Storage failed",
                "The file could not be read from the storage; try again later."));
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> duplicate(DuplicateWeekException e) {
        return ResponseEntity.status(HttpStatus.CONFLICT).body(problem(HttpStatus.CONFLICT, "Duplicate week",
                e.getMessage() + " Nothing was saved."));
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> notFound(WeekNotFoundException e) {
        return ResponseEntity.status(HttpStatus.NOT_FOUND).body(problem(HttpStatus.NOT_FOUND, "Not found",
                e.getMessage()));
    }

    /** The week could not be saved (the upload journal deletes its uploaded files again). */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> database(DataAccessException e) {
        LOG.error("database failure", e);
        return serviceUnavailable("Database unavailable",
                "The week could not be saved. Nothing was kept; try again later.");
    }

    private ResponseEntity<ProblemDetail> serviceUnavailable(String title, String detail) {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, Long.toString(properties.retryAfter().toSeconds()))
                .body(problem(HttpStatus.SERVICE_UNAVAILABLE, title, detail));
    }

    /** Anything else is a bug: a plain 500 with the request id to quote, and the stack trace in the log only. */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> unexpected(Exception e) {
        if (e instanceof ErrorResponse response) { // one of Spring's own that the superclass does not list
            return ResponseEntity.status(response.getStatusCode()).headers(response.getHeaders())
                    .body(withRequestId(response.getBody()));
        }
        LOG.error("unexpected failure", e);
        return ResponseEntity.internalServerError().body(problem(HttpStatus.INTERNAL_SERVER_ERROR,
                "Internal error", "Something went wrong on the server; quote the request id when reporting it."));
    }

    /** Both multipart limits, named with their values, instead of Spring's generic message. */
    @Override
    protected ResponseEntity<Object> handleMaxUploadSizeExceededException(MaxUploadSizeExceededException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail problem = problem(HttpStatus.CONTENT_TOO_LARGE, "Request too large",
                "The request is larger than the server accepts: at most " + size(multipart.getMaxFileSize())
                        + " per file and " + size(multipart.getMaxRequestSize()) + " per request.");
        return handleExceptionInternal(e, problem, headers, HttpStatus.CONTENT_TOO_LARGE, request);
    }

    /** Every invalid field, by name. */
    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (FieldError error : e.getBindingResult().getFieldErrors()) {
            fields.putIfAbsent(error.getField(), error.isBindingFailure() ? "is not valid" : error.getDefaultMessage());
        }
        String detail = fields.isEmpty() ? "The form is invalid." : "Invalid fields: " + fields.entrySet().stream()
                .map(f -> f.getKey() + " " + f.getValue()).reduce((a, b) -> a + "; " + b).orElse("") + ".";
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "Invalid form", detail);
        problem.setProperty("fields", fields);
        return handleExceptionInternal(e, problem, headers, HttpStatus.BAD_REQUEST, request);
    }

    /** Spring MVC's own problems get the request id too. */
    @Override
    protected ResponseEntity<Object> createResponseEntity(Object body, HttpHeaders headers, HttpStatusCode status,
            WebRequest request) {
        if (body instanceof ProblemDetail problem) {
            withRequestId(problem);
        }
        return super.createResponseEntity(body, headers, status, request);
    }

    /** As it is configured ({@code 20MB}), not in bytes. */
    private static String size(DataSize size) {
        long bytes = size.toBytes();
        return bytes % DataSize.ofMegabytes(1).toBytes() == 0 ? size.toMegabytes() + "MB"
                : bytes % DataSize.ofKilobytes(1).toBytes() == 0 ? size.toKilobytes() + "KB" : bytes + " bytes";
    }

    private static ProblemDetail problem(HttpStatus status, String title, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setTitle(title);
        return withRequestId(problem);
    }

    private static ProblemDetail withRequestId(ProblemDetail problem) {
        String requestId = MDC.get(RequestIdFilter.MDC_KEY);
        if (requestId != null) {
            problem.setProperty("requestId", requestId);
        }
        return problem;
    }
}
