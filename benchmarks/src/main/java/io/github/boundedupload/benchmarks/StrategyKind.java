package io.github.boundedupload.benchmarks;

import io.github.boundedupload.ExecutorType;

/**
 * The nine strategies, in the order the report lists them. Changes when the strategies compared, or their order,
 * change.
 */
enum StrategyKind {
    SEQUENTIAL("1 sequential loop", "loop", false),
    PARALLEL_STREAM("2 parallelStream()", "parallelStream", false),
    COMPLETABLE_FUTURE("3 CompletableFuture, pool 10/40/50", "CF + pool", false),
    LIBRARY_PLATFORM("4 library, platform threads", "lib platform", true),
    LIBRARY_VIRTUAL("5 library, virtual threads", "lib virtual", true),
    LIBRARY_NON_BLOCKING("6 library, non-blocking", "lib non-blocking", true),
    TRANSFER_MANAGER("7 Transfer Manager", "Transfer Manager", false),
    TRANSFER_MANAGER_CRT("8 Transfer Manager, CRT client", "TM (CRT)", false),
    LIBRARY_NON_BLOCKING_CRT("9 library, non-blocking, CRT client", "lib CRT", true);

    final String label;
    final String shortLabel;
    final boolean library;

    /** Whether this is one of the AWS SDK's Transfer Managers, the anchors a user would pick for throughput. */
    boolean transferManager() {
        return this == TRANSFER_MANAGER || this == TRANSFER_MANAGER_CRT;
    }

    /** Whether the strategy runs on the CRT-based client, which cannot be pointed at the in-process fakes. */
    boolean crt() {
        return this == TRANSFER_MANAGER_CRT || this == LIBRARY_NON_BLOCKING_CRT;
    }

    StrategyKind(String label, String shortLabel, boolean library) {
        this.label = label;
        this.shortLabel = shortLabel;
        this.library = library;
    }

    /** Builds the strategy: its clients, pools and uploaders. */
    Strategy open(Backend backend, Setup setup) {
        return switch (this) {
            case SEQUENTIAL -> new SequentialLoop(backend, setup);
            case PARALLEL_STREAM -> new ParallelStreamUploads(backend, setup);
            case COMPLETABLE_FUTURE -> new CompletableFutureUploads(backend, setup);
            case LIBRARY_PLATFORM -> new LibraryBlocking(backend, setup, ExecutorType.PLATFORM);
            case LIBRARY_VIRTUAL -> new LibraryBlocking(backend, setup, ExecutorType.VIRTUAL);
            case LIBRARY_NON_BLOCKING -> new LibraryNonBlocking(backend.asyncClient(setup.connections(), false), setup);
            case LIBRARY_NON_BLOCKING_CRT -> new LibraryNonBlocking(backend.crtClient(setup.connections()), setup);
            case TRANSFER_MANAGER -> new TransferManagerUploads(backend.asyncClient(setup.connections(), true), setup);
            case TRANSFER_MANAGER_CRT -> new TransferManagerUploads(backend.crtClient(setup.connections()), setup);
        };
    }
}
