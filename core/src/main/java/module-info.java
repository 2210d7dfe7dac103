/**
 * bounded-upload's core: the uploader, its configuration and results, the storage SPI, the local-disk storage, and
 * the optional Micrometer listener and adaptive concurrency limit. {@code io.github.boundedupload.internal} is not
 * exported: what adapters written elsewhere may use is in {@code spi} and {@code support}.
 */
module io.github.boundedupload.core {
    requires org.slf4j;
    requires static transitive org.jspecify;
    requires static transitive micrometer.core;
    requires static transitive concurrency.limits.core;

    exports io.github.boundedupload;
    exports io.github.boundedupload.spi;
    exports io.github.boundedupload.support;
    exports io.github.boundedupload.local;
    exports io.github.boundedupload.micrometer;
    exports io.github.boundedupload.limits;
}
