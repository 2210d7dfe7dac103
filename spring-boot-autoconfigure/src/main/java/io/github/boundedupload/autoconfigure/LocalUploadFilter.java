package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.local.LocalUploadSigner;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Receives the signed PUTs of direct uploads to the local disk ({@code bounded-upload.direct.local-path}) and hands
 * them to the {@link LocalUploadSigner}, which checks each against its signature before reading its body: 200 when
 * stored; 403 for a signature that does not match or has expired, 400 for a body not as signed, both with nothing
 * stored; 503 with {@code Retry-After} while as many uploads as the uploader runs at once are being received. Every
 * other request passes on. Its answers name no secret. Changes when how the local disk receives direct uploads
 * changes.
 */
final class LocalUploadFilter extends OncePerRequestFilter {

    private static final Log LOG = LogFactory.getLog(LocalUploadFilter.class);

    private final LocalUploadSigner signer;
    private final String path;
    private final Semaphore receiving;

    LocalUploadFilter(LocalUploadSigner signer, String path, int maxConcurrent) {
        this.signer = signer;
        this.path = path.startsWith("/") ? path : java.net.URI.create(path).getPath();
        this.receiving = new Semaphore(maxConcurrent);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String within = request.getRequestURI().substring(request.getContextPath().length());
        if (!within.equals(path)) {
            chain.doFilter(request, response);
            return;
        }
        if (!"PUT".equals(request.getMethod())) {
            response.setHeader("Allow", "PUT");
            response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            return;
        }
        if (!receiving.tryAcquire()) {
            response.setHeader("Retry-After", "1");
            answer(response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, "too many uploads at once; try again");
            return;
        }
        try {
            signer.receive(query(request.getQueryString()), request.getContentType(), request.getContentLengthLong(),
                    request.getInputStream());
            response.setStatus(HttpServletResponse.SC_OK);
        } catch (LocalUploadSigner.RefusedException e) {
            answer(response, e.status(), String.valueOf(e.getMessage()));
        } catch (IllegalArgumentException e) {
            answer(response, HttpServletResponse.SC_BAD_REQUEST, "a malformed query string");
        } catch (IOException e) {
            LOG.info("bounded-upload: a direct upload to the local disk failed, nothing stored: " + e.getMessage());
            answer(response, HttpServletResponse.SC_BAD_REQUEST, "the upload could not be read or stored");
        } finally {
            receiving.release();
        }
    }

    private static void answer(HttpServletResponse response, int status, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("text/plain;charset=UTF-8");
        response.getWriter().write(message);
    }

    /** The query string's parameters, decoded; the body is never read for them. */
    private static Map<String, String> query(@Nullable String query) {
        Map<String, String> parameters = new HashMap<>();
        if (query != null) {
            for (String pair : query.split("&")) {
                int equals = pair.indexOf('=');
                if (equals > 0) {
                    parameters.putIfAbsent(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
                            URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return parameters;
    }
}
