package io.github.boundedupload.benchmarks;

import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.S3UploadOptions;
import io.github.boundedupload.testsupport.S3Server;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ForkJoinPool;

/**
 * The five source cases, and how every strategy is set up in each: the same concurrency and the same HTTP pool
 * wherever the strategy lets them be chosen, and this library configured as its README and docs tell a user to.
 * Changes when a scenario, or how a strategy is set up in it, changes.
 */
enum Scenario {
    A("10 attachments of 200 KiB, 150 ms latency per request (source 000)"),
    B("1,344 files of 256 KiB, 50 ms latency per request (source 001, scaled to LocalStack's memory)"),
    C("4 files of 180 MB on disk, no added latency (source 001's large files)"),
    D("500 uploads of 2 s each, in process (source 004: permits vs threads)"),
    E("isolation: a 14,000-upload batch next to the rest of the application (source 004)"),
    F("adaptive concurrency: 400 uploads of 64 KiB to a server that degrades past 8 requests in flight"),
    M("mixed sizes: 160 files of 3 KB to 23 MB, 20 above the SDK's multipart threshold (8 MiB), 30 ms latency per"
            + " request");

    static final int A_FILES = 10;
    static final int A_SIZE = 200 * 1024;
    static final Duration A_LATENCY = Duration.ofMillis(150);
    static final int B_SIZE = 256 * 1024;
    static final Duration B_LATENCY = Duration.ofMillis(50);
    /** Scenario B: uploads in flight and HTTP connections of every strategy that lets them be chosen. */
    static final int B_CONCURRENCY = 50;
    static final int C_FILES = 4;
    static final int SMALL_SIZE = 1024;
    static final Duration E_LATENCY = Duration.ofMillis(30);
    /** Scenario D: strategies whose waiting uploads hold a platform thread get 64 (Kotlin's Dispatchers.IO)... */
    static final int D_THREADS = 64;
    /** ...those whose waiting uploads hold no platform thread get a permit per upload. */
    static final int D_PERMITS = 500;
    static final int E_CONCURRENCY = 64;
    /** Scenario E: this library lets one batch take 56 of its 64 permits, leaving 8 for other requests. */
    static final int E_PER_BATCH = 56;
    /** Scenario M: uploads in flight and HTTP connections, as a new user tried it (issue 47, item 7). */
    static final int M_CONCURRENCY = 32;
    static final Duration M_LATENCY = Duration.ofMillis(30);
    /**
     * Scenario M's multipart threshold when {@code -Dbench.mMultipartThreshold} does not set one: the S3 adapter's
     * default (256 MiB), as a new user runs it, so every file of M goes in one PutObject, as the pools send them. With
     * 16 MiB ({@code -Dbench.mMultipartThreshold=16777216}) its 8 largest files (17-23 MB) go in parts: what that costs
     * is in docs/benchmarks.md.
     */
    static final long M_MULTIPART_THRESHOLD = S3UploadOptions.DEFAULT_MULTIPART_THRESHOLD;

    final String title;

    Scenario(String title) {
        this.title = title;
    }

    /** Uploads in the measured batch. */
    int uploads(Scale scale) {
        return switch (this) {
            case A -> A_FILES;
            case B -> scale.bFiles();
            case C -> C_FILES;
            case D -> scale.dUploads();
            case E -> scale.eUploads();
            case F -> ScenarioF.uploads(scale);
            case M -> ScenarioM.FILES;
        };
    }

    /**
     * Whether the strategy is measured at all: the loop in B and D's naive strategies take N x latency by construction
     * (90 s and more a run; no target compares with them), and the CRT client's native HTTP stack cannot be pointed at
     * the in-process fakes of D and E.
     */
    boolean measures(StrategyKind kind) {
        if (this == B && kind == StrategyKind.SEQUENTIAL) {
            return false;
        }
        if (this == F) {
            return kind == StrategyKind.LIBRARY_PLATFORM; // its settings, compared with each other (ScenarioF)
        }
        if (kind.crt()) {
            return this != D && this != E;
        }
        return this != D || kind != StrategyKind.SEQUENTIAL && kind != StrategyKind.PARALLEL_STREAM;
    }

    /**
     * The rounds of this scenario: {@link Scale#rounds()} JVMs per strategy, one round after another, except D (one
     * round), E (one JVM per measured run, as many as {@link Scale#runs()}) and F (one JVM that interleaves its
     * settings itself).
     */
    int rounds(Scale scale) {
        return switch (this) {
            case E -> scale.runs();
            case D, F -> 1; // D runs in process, away from the noise of the servers
            default -> scale.rounds();
        };
    }

    /**
     * Whether a strategy is measured in the first round only: {@code parallelStream()} in B takes half a minute a run
     * by construction, and no target compares with it.
     */
    boolean firstRoundOnly(StrategyKind kind) {
        return this == B && kind == StrategyKind.PARALLEL_STREAM;
    }

    /**
     * The scenarios a run on {@code server} measures unless told which: A, B and C on every server; D and E run in
     * process (no server), so with LocalStack only; F, where the server must not be the knee itself, and M, whose
     * 400 MB a batch LocalStack would hold in memory, with versitygw.
     */
    static List<Scenario> defaults(S3Server server) {
        return server == S3Server.LOCALSTACK ? List.of(A, B, C, D, E) : List.of(A, B, C, F, M);
    }

    /** Whether scenario's uploads go to a real S3 server (A, B, C, F, M), so that its figures belong to that server. */
    boolean onServer() {
        return this != D && this != E;
    }

    /** Whether a strategy's uploads wait without holding a platform thread (scenario D gives those more). */
    static boolean permitBound(StrategyKind kind) {
        return kind == StrategyKind.LIBRARY_VIRTUAL || kind == StrategyKind.LIBRARY_NON_BLOCKING
                || kind == StrategyKind.LIBRARY_NON_BLOCKING_CRT || kind.transferManager();
    }

    /** How a strategy is set up in this scenario. */
    Setup setup(StrategyKind kind, Scale scale, String bucket) {
        return switch (this) {
            case A -> setup(bucket, A_FILES, A_FILES, A_FILES, A_FILES);
            case M -> setup(bucket, M_CONCURRENCY, M_CONCURRENCY, M_CONCURRENCY, ScenarioM.FILES,
                    S3UploadOptions.builder().multipartThreshold(Long.getLong("bench.mMultipartThreshold",
                            M_MULTIPART_THRESHOLD)).partSize(Long.getLong("bench.mPartSize", S3UploadOptions.DEFAULT_PART_SIZE))
                            .partsInFlight(Integer.getInteger("bench.mPartsInFlight",
                                    S3UploadOptions.DEFAULT_PARTS_IN_FLIGHT)));
            case B -> setup(bucket, B_CONCURRENCY, B_CONCURRENCY, B_CONCURRENCY, scale.bFiles());
            // One file per upload slot; 16 connections: four multipart uploads of four parts in flight each.
            case C -> setup(bucket, C_FILES, 16, C_FILES, C_FILES);
            case D -> {
                int concurrency = permitBound(kind) ? D_PERMITS : D_THREADS;
                yield setup(bucket, concurrency, concurrency, concurrency, scale.dUploads());
            }
            case E -> setup(bucket, E_CONCURRENCY, E_CONCURRENCY, E_PER_BATCH, scale.eUploads());
            case F -> setup(bucket, ScenarioF.MAX, ScenarioF.MAX, ScenarioF.MAX, ScenarioF.uploads(scale));
        };
    }

    private static Setup setup(String bucket, int concurrency, int connections, int perBatch, int batchSize) {
        return setup(bucket, concurrency, connections, perBatch, batchSize, S3UploadOptions.builder());
    }

    private static Setup setup(String bucket, int concurrency, int connections, int perBatch, int batchSize,
            S3UploadOptions.Builder options) {
        UploaderConfig uploader = UploaderConfig.builder()
                .name("bench")
                .maxConcurrentUploads(concurrency)
                .maxConcurrentUploadsPerBatch(perBatch)
                .maxAttachmentsPerBatch(Math.max(UploaderConfig.DEFAULT_MAX_ATTACHMENTS_PER_BATCH, batchSize))
                .maxQueuedUploads(Math.max(UploaderConfig.DEFAULT_MAX_QUEUED_UPLOADS, batchSize + 1_000))
                .build();
        return new Setup(bucket, concurrency, connections, uploader, options.maxConcurrency(connections).build());
    }

    /**
     * Uploads of the batch in flight at once: chosen by the scenario where the strategy allows it, else what the
     * strategy's construction gives (1 for the loop; the common pool's threads and the caller for
     * {@code parallelStream()}; the source's pool for the {@code CompletableFuture} strategy).
     */
    int inFlight(StrategyKind kind, Scale scale) {
        int n = uploads(scale);
        Setup setup = setup(kind, scale, "-");
        int inFlight = switch (kind) {
            case SEQUENTIAL -> 1;
            case PARALLEL_STREAM -> ForkJoinPool.getCommonPoolParallelism() + 1;
            case COMPLETABLE_FUTURE -> CompletableFutureUploads.inFlight(n);
            case LIBRARY_PLATFORM, LIBRARY_VIRTUAL, LIBRARY_NON_BLOCKING, LIBRARY_NON_BLOCKING_CRT ->
                    setup.uploader().maxConcurrentUploadsPerBatch();
            case TRANSFER_MANAGER, TRANSFER_MANAGER_CRT -> setup.connections();
        };
        return Math.min(n, inFlight);
    }

    /** The time one upload takes in a latency-bound scenario (as configured; A and B are measured instead). */
    Duration configuredLatency(Scale scale) {
        return switch (this) {
            case A -> A_LATENCY;
            case B -> B_LATENCY;
            case C -> Duration.ZERO;
            case D -> scale.dLatency();
            case E -> E_LATENCY;
            case F -> ScenarioF.LATENCY;
            case M -> M_LATENCY;
        };
    }
}
