package io.github.boundedupload.examples.studyweek.web;

import io.github.boundedupload.examples.studyweek.StudyWeekProperties;
import jakarta.servlet.MultipartConfigElement;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.springframework.boot.servlet.MultipartConfigFactory;
import org.springframework.boot.servlet.autoconfigure.MultipartProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.util.unit.DataSize;

/**
 * Every limit a week's request meets, derived from the two settings a user is told about,
 * {@code study-week.max-files} and {@code study-week.max-file-size}: the uploader's (application.yml points
 * {@code bounded-upload.*} at them), Spring's multipart sizes, and Tomcat's multipart part count and swallow size.
 * Otherwise each layer has a default of its own (Spring's 1MB, Tomcat's 50 parts), and the user meets whichever is
 * smallest, described in that layer's words: a request of 47 tiny files was "too large". Changes when a limit a week's
 * request meets, or how it follows from the two settings, changes.
 *
 * <p>{@code spring.servlet.multipart.max-file-size}, {@code max-request-size} and {@code server.tomcat.max-part-count}
 * are therefore not used; the multipart location and threshold still are.
 */
@Configuration(proxyBeanMethods = false)
class RequestLimits {

    /** Form fields besides the files (title, content, start and end date), with room for a few a client adds. */
    static final int FORM_FIELDS = 10;
    /** What the form fields and each part's headers may add to the files' bytes. */
    static final DataSize FORM_ALLOWANCE = DataSize.ofMegabytes(1);

    /** The largest request: every file at its largest, and the form. */
    static long maxRequestSize(StudyWeekProperties limits) {
        return limits.maxFiles() * limits.maxFileSize().toBytes() + FORM_ALLOWANCE.toBytes();
    }

    /** Replaces Spring Boot's (which backs off): the sizes come from the week's limits, the rest as configured. */
    @Bean
    MultipartConfigElement multipartConfigElement(MultipartProperties multipart, StudyWeekProperties limits) {
        MultipartConfigFactory factory = new MultipartConfigFactory();
        factory.setLocation(multipart.getLocation());
        factory.setFileSizeThreshold(multipart.getFileSizeThreshold());
        // A form field counts against this too: no field of the form needs more.
        factory.setMaxFileSize(limits.maxFileSize());
        factory.setMaxRequestSize(DataSize.ofBytes(maxRequestSize(limits)));
        return factory.createMultipartConfig();
    }

    /**
     * Tomcat's part count (50 by default, checked before Spring's sizes) from the number of files; and its swallow
     * size (2MB by default) as large as a request may be, so that a client refused in the middle of its request still
     * reads the answer instead of a reset connection: a refused request costs no more than an accepted one. Runs after
     * Spring Boot's own customizer, which applies {@code server.tomcat.*}.
     */
    @Bean
    TomcatLimits tomcatRequestLimits(StudyWeekProperties limits) {
        return new TomcatLimits(limits);
    }

    /** See {@link #tomcatRequestLimits}. */
    static final class TomcatLimits implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

        private final StudyWeekProperties limits;

        TomcatLimits(StudyWeekProperties limits) {
            this.limits = limits;
        }

        @Override
        public void customize(TomcatServletWebServerFactory factory) {
            factory.addConnectorCustomizers(connector -> {
                connector.setMaxPartCount(limits.maxFiles() + FORM_FIELDS);
                if (connector.getProtocolHandler() instanceof AbstractHttp11Protocol<?> http) {
                    http.setMaxSwallowSize((int) Math.min(Integer.MAX_VALUE, maxRequestSize(limits)));
                }
            });
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }
    }
}
