package io.github.boundedupload.examples.studyweek.direct;

import io.github.boundedupload.direct.DirectUploads;
import io.github.boundedupload.direct.FileToUpload;
import io.github.boundedupload.direct.UploadGrant;
import io.github.boundedupload.examples.studyweek.week.WeekService;
import io.github.boundedupload.spi.SignedParts;
import io.github.boundedupload.spi.SignedRequest;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Grants of direct uploads (profile {@code localstack}, {@code bounded-upload.direct.enabled}): the browser names the
 * files it is about to send (name, size, type, SHA-256), gets a signed PUT per file (a PUT per part above
 * bounded-upload.direct.parts-above, without a SHA-256), sends each file to the storage
 * itself, and then creates the week with the grants' ids ({@code POST /api/studies/{id}/weeks} with JSON). The bytes
 * never pass through this application. Changes when the grant endpoint changes.
 *
 * <pre>
 * curl -H 'Content-Type: application/json' -d '[{"name":"notes.txt","size":6,"type":"text/plain"}]' \
 *      http://localhost:8080/api/studies/42/grants
 * </pre>
 */
@RestController
class GrantController {

    private final ObjectProvider<DirectUploads> direct;

    GrantController(ObjectProvider<DirectUploads> direct) {
        this.direct = direct;
    }

    /**
     * A file the browser is about to send, as it describes it.
     *
     * @param name its name
     * @param size its size in bytes
     * @param type its content type; empty or missing for unknown
     * @param sha256 its SHA-256, base64, or {@code null}: the storage then refuses any other bytes
     */
    record FileToSend(String name, long size, String type, String sha256) {
    }

    /**
     * A grant as the browser uses it: where to send the file (in one request, or in parts), with which headers, until
     * when.
     *
     * @param id the grant's id, for the week's creation
     * @param fileName the file it is for
     * @param method the method to send it (or each part) with
     * @param url the signed URL of a file sent in one request; {@code null} for one sent in parts
     * @param headers the headers to send with it, each exactly as given
     * @param expiresAt when the URLs stop being accepted
     * @param partSize the size of every part but the last, for a file sent in parts; 0 otherwise
     * @param parts the parts of a file sent in parts, part 1 first; empty otherwise
     */
    record GrantView(String id, String fileName, String method, URI url, Map<String, String> headers,
            Instant expiresAt, long partSize, List<PartView> parts) {
    }

    /**
     * One part of a file sent in parts: its signed URL and the headers to send with it.
     *
     * @param url the signed URL
     * @param headers the headers, each exactly as given
     */
    record PartView(URI url, Map<String, String> headers) {
    }

    @PostMapping("/api/studies/{studyId}/grants")
    ResponseEntity<List<GrantView>> grant(@PathVariable long studyId, @RequestBody List<FileToSend> files) {
        DirectUploads uploads = direct.getIfAvailable();
        if (uploads == null) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "Direct uploads are off.");
        }
        List<FileToUpload> announced = files.stream().map(GrantController::announced).toList();
        List<GrantView> grants = uploads.grant(WeekService.caller(studyId), announced).stream()
                .map(GrantController::view).toList();
        return ResponseEntity.status(HttpStatus.CREATED).body(grants);
    }

    private static FileToUpload announced(FileToSend file) {
        // A missing name is refused by the uploader's check, which names the file by its place in the list.
        String name = file.name() == null ? "" : file.name();
        String type = file.type() == null || file.type().isBlank() ? "application/octet-stream" : file.type();
        return file.sha256() == null ? FileToUpload.of(name, file.size(), type)
                : new FileToUpload(name, file.size(), type, "SHA256", file.sha256());
    }

    private static GrantView view(UploadGrant grant) {
        if (grant.signedParts().isPresent()) { // a large file: a signed PUT per part, completed when the week is saved
            SignedParts parts = grant.signedParts().get();
            return new GrantView(grant.id(), grant.file().fileName(), "PUT", null, Map.of(), grant.expiresAt(),
                    parts.partSize(), parts.parts().stream().map(part -> new PartView(part.url(), part.headers()))
                            .toList());
        }
        SignedRequest put = grant.signedRequest().orElseThrow();
        return new GrantView(grant.id(), grant.file().fileName(), put.method(), put.url(), put.headers(),
                put.expiresAt(), 0, List.of());
    }
}
