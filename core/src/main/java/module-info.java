/**
 * bounded-upload's core: the uploader, its configuration and results, the storage SPI, the local-disk storage, direct
 * uploads, and the optional Micrometer listener and adaptive concurrency limit. {@code io.github.boundedupload.internal} is not
 * exported: what adapters written elsewhere may use is in {@code spi} and {@code support}.
 */
module io.github.boundedupload.core {
    requires org.slf4j;
    requires static transitive org.jspecify;
    // Optional: only the packages micrometer and limits need them, and an application that uses those has them.
    // (Not transitive: a module reading this one would then need both at compile time.)
    requires static micrometer.core;
    requires static micrometer.observation;
    requires static micrometer.commons;
    requires static context.propagation;
    requires static concurrency.limits.core;
    requires static reactor.core;
    requires static org.reactivestreams;

    exports io.github.boundedupload;
    exports io.github.boundedupload.spi;
    exports io.github.boundedupload.support;
    exports io.github.boundedupload.local;
    exports io.github.boundedupload.direct;
    exports io.github.boundedupload.micrometer;
    exports io.github.boundedupload.limits;
    exports io.github.boundedupload.reactor;
}
