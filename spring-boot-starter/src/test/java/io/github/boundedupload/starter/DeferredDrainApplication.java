package io.github.boundedupload.starter;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.jdbc.DeferredAttachment;
import io.github.boundedupload.jdbc.DeferredUploadListener;
import io.github.boundedupload.jdbc.DeferredUploads;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.testsupport.TestData;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The application {@link DeferredDrainOnSigtermIT} starts as a process of its own and stops with SIGTERM: the
 * starter's uploader on S3 with the upload journal on an H2 database in a file, which outlives the process. When
 * {@code drain.submit} is above zero it submits that many deferred uploads (one {@value #SIZE}-byte attachment each)
 * at start-up; the uploads run after, on the journal's scheduler. It reports on standard output, one line each
 * (prefixed with {@value DrainApplication#LINE}), every attachment it submits, when each starts uploading, and each
 * deferred upload's outcome.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class DeferredDrainApplication {

    static final int SIZE = 1024 * 1024;

    public static void main(String[] args) {
        SpringApplication.run(DeferredDrainApplication.class, args);
    }

    /** The journal's database: H2 in a file, left open until the journal has stopped (no close on exit). */
    @Bean
    DataSource dataSource(@Value("${drain.database}") String file) {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:file:" + file + ";DB_CLOSE_ON_EXIT=FALSE");
        return dataSource;
    }

    @Bean
    UploadListener uploading() {
        return new UploadListener() {
            @Override
            public void uploadStarted(UploadEvent upload, Duration queued) {
                DrainApplication.report("uploading " + upload.key());
            }
        };
    }

    @Bean
    DeferredUploadListener outcomes() {
        return new DeferredUploadListener() {
            @Override
            public void stored(DeferredAttachment attachment) {
                DrainApplication.report("stored " + attachment.key());
            }

            @Override
            public void failed(DeferredAttachment attachment) {
                DrainApplication.report("failed " + attachment.key() + " " + attachment.failure().orElse(""));
            }
        };
    }

    @Bean
    ApplicationRunner workload(DeferredUploads deferred, @Value("${drain.submit}") int submit) {
        return args -> {
            for (int i = 0; i < submit; i++) {
                String key = "deferred/" + i + ".bin";
                deferred.submit(List.of(Attachment.builder(i + ".bin",
                        AttachmentContent.ofBytes(TestData.bytes(key.hashCode(), SIZE))).key(key).build()));
                DrainApplication.report("submitted " + key + " " + SIZE);
            }
            DrainApplication.report("started");
        };
    }
}
