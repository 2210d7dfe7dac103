package io.github.boundedupload.examples.studyweek.web;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.InvalidAttachmentException;
import io.github.boundedupload.direct.GrantRefusedException;
import io.github.boundedupload.InvalidAttachmentException.Problem.Kind;
import io.github.boundedupload.UploadException;
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
import java.util.stream.Collectors;
import org.apache.tomcat.util.http.fileupload.InvalidFileNameException;
import org.apache.tomcat.util.http.fileupload.impl.FileCountLimitExceededException;
import org.apache.tomcat.util.http.fileupload.impl.FileSizeLimitExceededException;
import org.apache.tomcat.util.http.fileupload.impl.SizeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.core.NestedExceptionUtils;
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
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.multipart.MultipartHttpServletRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.util.WebUtils;

/**
 * Turns every failure into an RFC 9457 problem detail ({@code application/problem+json}) with a message a client can
 * act on, and the request id to quote. Server-side details (storage keys, paths, exception messages of the storage
 * client, stack traces) go to the log only. Changes when how a failure is reported to the client changes.
 *
 * <p>Spring MVC's own exceptions (missing parts, invalid fields, the multipart size limits) are handled by
 * {@link ResponseEntityExceptionHandler}; a few of its messages are made clearer here.
 */
@RestControllerAdvice
class ApiExceptionHandler extends ResponseEntityExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ApiExceptionHandler.class);

    private static final int MAX_NAME_LENGTH = 80;
    private static final String NOTHING_SAVED = " Nothing was saved.";

    private final StudyWeekProperties properties;

    ApiExceptionHandler(ConcurrentAttachmentUploader uploader, StudyWeekProperties properties) {
        this.properties = properties;
        // The user is told study-week.max-files and max-file-size: the uploader must refuse at those very numbers.
        if (uploader.config().maxAttachmentsPerBatch() != properties.maxFiles()
                || uploader.config().maxAttachmentSize() != properties.maxFileSize().toBytes()) {
            throw new IllegalStateException("bounded-upload.max-attachments-per-batch and max-attachment-size must be"
                    + " study-week.max-files and max-file-size (application.yml): the user is told those");
        }
    }

    /**
     * The uploader refused the files before uploading any: too many, too large, or a dangerous name. Told in the
     * user's words: files counted from 1, named by their (sanitised) names, the limits as the user knows them
     * (study-week.*); the library's own message goes to the log.
     */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> invalidAttachments(InvalidAttachmentException e, HttpServletRequest request) {
        LOG.info("refused the files: {}", e.getMessage());
        List<InvalidAttachmentException.Problem> problems = e.problems();
        if (problems.stream().anyMatch(p -> p.kind() == Kind.TOO_MANY_ATTACHMENTS)) {
            return tooManyFiles(files(request).size());
        }
        if (problems.stream().allMatch(p -> p.kind() == Kind.TOO_LARGE)) {
            return fileTooLarge(problems.stream().map(p -> "file " + (p.index() + 1) + " (" + name(p) + ")").toList());
        }
        List<Map<String, Object>> refused = problems.stream().map(p -> {
            Map<String, Object> file = new LinkedHashMap<>();
            file.put("file", p.index() + 1);
            file.put("name", name(p));
            file.put("reason", p.kind() == Kind.FILE_NAME ? p.reason() : "it cannot be stored");
            return file;
        }).toList();
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "Invalid files", refused.stream()
                .map(f -> "File " + f.get("file") + " (" + f.get("name") + "): " + f.get("reason"))
                .collect(Collectors.joining("; ")) + "." + NOTHING_SAVED);
        problem.setProperty("files", refused);
        return ResponseEntity.badRequest().body(problem);
    }

    private ResponseEntity<ProblemDetail> tooManyFiles(int sent) {
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "Too many files", "A week takes at most "
                + properties.maxFiles() + " files; this request has " + (sent > properties.maxFiles() ? sent
                        : "more than that") + "." + NOTHING_SAVED);
        problem.setProperty("maxFiles", properties.maxFiles());
        return ResponseEntity.badRequest().body(problem);
    }

    /** @param files the files over the limit, as the user knows them */
    private ResponseEntity<ProblemDetail> fileTooLarge(List<String> files) {
        ProblemDetail problem = problem(HttpStatus.CONTENT_TOO_LARGE, "File too large", "Each file may be at most "
                + size(properties.maxFileSize()) + "; " + String.join(", ", files) + (files.size() == 1 ? " is"
                        : " are") + " larger." + NOTHING_SAVED);
        problem.setProperty("maxFileSize", properties.maxFileSize().toBytes());
        return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE).body(problem);
    }

    /** The request's files as the uploader was given them (empty file fields left out): how many were sent. */
    private static List<Attachment> files(HttpServletRequest request) {
        MultipartHttpServletRequest multipartRequest = WebUtils.getNativeRequest(request,
                MultipartHttpServletRequest.class);
        return multipartRequest == null ? List.of() : MultipartAttachments.of(multipartRequest.getFiles("files"));
    }

    private static String name(InvalidAttachmentException.Problem problem) {
        return problem.fileName().map(ApiExceptionHandler::quote).orElse("?");
    }

    /**
     * A file name as it can be shown: quoted, control and invisible formatting characters (a NUL, a bidirectional
     * override) and broken surrogates replaced by U+FFFD, cut to {@value #MAX_NAME_LENGTH} characters.
     */
    static String quote(String name) {
        StringBuilder shown = new StringBuilder("'");
        name.codePoints().limit(MAX_NAME_LENGTH).forEach(c -> shown.appendCodePoint(Character.isISOControl(c)
                || Character.getType(c) == Character.FORMAT || Character.getType(c) == Character.SURROGATE
                        ? 0xFFFD : c));
        return shown.append(name.codePointCount(0, name.length()) > MAX_NAME_LENGTH ? "…'" : "'").toString();
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
                        + e.failures().size() + " of " + e.result().size() + " files: " + e.failures().stream()
                                .map(r -> "file " + (r.index() + 1) + " (" + quote(r.attachment().fileName()) + ")")
                                .collect(Collectors.joining(", "))
                        + ". Nothing was saved; try again later.");
        // Counted from 1, as the user counts the files chosen.
        problem.setProperty("failedFiles", e.failures().stream().map(r -> r.index() + 1).toList());
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

    /** A request for grants beyond a bound, or a confirm naming a grant that is not the study's. */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> grantRefused(GrantRefusedException e) {
        return ResponseEntity.badRequest().body(problem(HttpStatus.BAD_REQUEST, "Upload refused", e.getMessage()));
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

    /**
     * A multipart limit of the server (RequestLimits), hit while the request was read, before the uploader saw it:
     * told with the same numbers as the uploader's refusals. Tomcat's exception says which limit, and which file.
     */
    @Override
    protected ResponseEntity<Object> handleMaxUploadSizeExceededException(MaxUploadSizeExceededException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ResponseEntity<ProblemDetail> answer = multipartLimit(e);
        return handleExceptionInternal(e, answer.getBody(), headers, answer.getStatusCode(), request);
    }

    /**
     * The body could not be read as a form: not multipart, no boundary, cut off or garbled. The client's fault (400),
     * not a server failure; or one of the multipart limits, when Tomcat's exception says so.
     */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> malformed(MultipartException e) {
        return multipartLimit(e);
    }

    private ResponseEntity<ProblemDetail> multipartLimit(MultipartException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidFileNameException invalid) {
                // Tomcat refuses a NUL in a file name while it reads the request, before the uploader's own checks.
                String name = quote(invalid.getName());
                Map<String, Object> file = new LinkedHashMap<>();
                file.put("name", name);
                file.put("reason", "the file name contains a control character");
                ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "Invalid files", "The file " + name
                        + ": the file name contains a control character." + NOTHING_SAVED);
                problem.setProperty("files", List.of(file));
                return ResponseEntity.badRequest().body(problem);
            }
            if (cause instanceof FileCountLimitExceededException) {
                return tooManyFiles(-1);
            }
            if (cause instanceof FileSizeLimitExceededException file) {
                return file.getFileName() != null ? fileTooLarge(List.of(quote(file.getFileName())))
                        : requestTooLarge("Each form field may be at most " + size(properties.maxFileSize())
                                + "; " + quote(String.valueOf(file.getFieldName())) + " is larger.");
            }
            if (cause instanceof SizeException) {
                return requestTooLarge("A week takes at most " + properties.maxFiles() + " files of at most "
                        + size(properties.maxFileSize()) + " each; this request is larger.");
            }
        }
        if (e instanceof MaxUploadSizeExceededException) {
            return requestTooLarge("A week takes at most " + properties.maxFiles() + " files of at most "
                    + size(properties.maxFileSize()) + " each; this request is larger.");
        }
        LOG.info("refused a malformed multipart request: {}", NestedExceptionUtils.getMostSpecificCause(e).toString());
        return ResponseEntity.badRequest().body(problem(HttpStatus.BAD_REQUEST, "Malformed request",
                "The request is not a valid multipart/form-data form: send the fields and files as a browser's form"
                        + " does." + NOTHING_SAVED));
    }

    private ResponseEntity<ProblemDetail> requestTooLarge(String detail) {
        ProblemDetail problem = problem(HttpStatus.CONTENT_TOO_LARGE, "Request too large", detail + NOTHING_SAVED);
        problem.setProperty("maxFiles", properties.maxFiles());
        problem.setProperty("maxFileSize", properties.maxFileSize().toBytes());
        return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE).body(problem);
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

    /** As a user reads it ({@code 10 MB}), not in bytes. */
    static String size(DataSize size) {
        long bytes = size.toBytes();
        return bytes % DataSize.ofMegabytes(1).toBytes() == 0 ? size.toMegabytes() + " MB"
                : bytes % DataSize.ofKilobytes(1).toBytes() == 0 ? size.toKilobytes() + " KB" : bytes + " bytes";
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
