package io.github.boundedupload.spi;

import java.net.URLConnection;
import java.util.Locale;
import java.util.Map;

/**
 * Content types detected from file name extensions, for {@link UploadRequest#contentType()}. Changes when a type is
 * added.
 */
final class ContentTypes {

    /** The type of content nobody declared or recognised. */
    static final String OCTET_STREAM = "application/octet-stream";

    // The JDK's own table (content-types.properties) lacks many formats users upload every day.
    private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
            Map.entry("png", "image/png"), Map.entry("jpg", "image/jpeg"), Map.entry("jpeg", "image/jpeg"),
            Map.entry("gif", "image/gif"), Map.entry("webp", "image/webp"), Map.entry("avif", "image/avif"),
            Map.entry("heic", "image/heic"), Map.entry("svg", "image/svg+xml"), Map.entry("bmp", "image/bmp"),
            Map.entry("ico", "image/vnd.microsoft.icon"), Map.entry("tif", "image/tiff"),
            Map.entry("tiff", "image/tiff"), Map.entry("pdf", "application/pdf"),
            Map.entry("txt", "text/plain"), Map.entry("md", "text/markdown"), Map.entry("csv", "text/csv"),
            Map.entry("html", "text/html"), Map.entry("htm", "text/html"), Map.entry("css", "text/css"),
            Map.entry("js", "text/javascript"), Map.entry("json", "application/json"),
            Map.entry("xml", "application/xml"), Map.entry("zip", "application/zip"),
            Map.entry("gz", "application/gzip"), Map.entry("tar", "application/x-tar"),
            Map.entry("7z", "application/x-7z-compressed"), Map.entry("mp3", "audio/mpeg"),
            Map.entry("wav", "audio/wav"), Map.entry("ogg", "audio/ogg"), Map.entry("mp4", "video/mp4"),
            Map.entry("mov", "video/quicktime"), Map.entry("webm", "video/webm"),
            Map.entry("doc", "application/msword"),
            Map.entry("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
            Map.entry("xls", "application/vnd.ms-excel"),
            Map.entry("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
            Map.entry("ppt", "application/vnd.ms-powerpoint"),
            Map.entry("pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
            Map.entry("hwp", "application/x-hwp"));

    private ContentTypes() {
    }

    /** The content type for a file name's extension, or {@link #OCTET_STREAM}. */
    static String fromFileName(String fileName) {
        int dot = fileName.lastIndexOf('.');
        if (dot >= 0 && dot < fileName.length() - 1) {
            String known = BY_EXTENSION.get(fileName.substring(dot + 1).toLowerCase(Locale.ROOT));
            if (known != null) {
                return known;
            }
        }
        String jdk = URLConnection.getFileNameMap().getContentTypeFor(fileName);
        return jdk != null ? jdk : OCTET_STREAM;
    }
}
