package io.github.boundedupload.s3.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RequestLimiterTest {

    @Test
    void runsAtMostItsPermitsAndStartsTheOthersInOrder() {
        RequestLimiter limiter = new RequestLimiter(2, 100);
        List<CompletableFuture<Integer>> calls = new ArrayList<>();
        List<Integer> started = new ArrayList<>();
        List<CompletableFuture<Integer>> results = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int n = i;
            results.add(limiter.run(() -> {
                started.add(n);
                CompletableFuture<Integer> call = new CompletableFuture<>();
                calls.add(call);
                return call;
            }));
        }
        assertThat(started).containsExactly(0, 1);
        assertThat(limiter.running()).isEqualTo(2);
        assertThat(limiter.waiting()).isEqualTo(3);
        calls.get(1).complete(1);
        assertThat(started).containsExactly(0, 1, 2);
        calls.get(0).complete(0);
        calls.get(2).completeExceptionally(new IllegalStateException("boom"));
        assertThat(started).containsExactly(0, 1, 2, 3, 4);
        assertThat(results.get(1)).isCompletedWithValue(1);
        assertThat(results.get(2)).isCompletedExceptionally();
        calls.get(3).complete(3);
        calls.get(4).complete(4);
        assertThat(limiter.running()).isZero();
        assertThat(limiter.waiting()).isZero();
    }

    @Test
    void cancellingAWaitingCallTakesItOutOfTheQueue() {
        RequestLimiter limiter = new RequestLimiter(1, 100);
        CompletableFuture<String> first = new CompletableFuture<>();
        limiter.run(() -> first);
        AtomicInteger secondStarted = new AtomicInteger();
        CompletableFuture<String> second = limiter.run(() -> {
            secondStarted.incrementAndGet();
            return new CompletableFuture<>();
        });
        CompletableFuture<String> third = limiter.run(() -> CompletableFuture.completedFuture("third"));
        assertThat(second.cancel(true)).isTrue();
        assertThat(limiter.waiting()).isEqualTo(1);
        first.complete("first");
        assertThat(third).isCompletedWithValue("third");
        assertThat(secondStarted).hasValue(0);
        assertThat(limiter.running()).isZero();
    }

    @Test
    void cancellingARunningCallCancelsItAndFreesItsPermit() {
        RequestLimiter limiter = new RequestLimiter(1, 100);
        CompletableFuture<String> call = new CompletableFuture<>();
        CompletableFuture<String> result = limiter.run(() -> call);
        result.cancel(true);
        assertThat(call).isCancelled();
        assertThat(limiter.running()).isZero();
        assertThat(limiter.run(() -> CompletableFuture.completedFuture("next"))).isCompletedWithValue("next");
    }

    @Test
    void aCallThatThrowsFailsItsFutureAndFreesItsPermit() {
        RequestLimiter limiter = new RequestLimiter(1, 100);
        CompletableFuture<String> result = limiter.run(() -> {
            throw new IllegalStateException("cannot even start");
        });
        assertThat(result).isCompletedExceptionally();
        assertThat(limiter.running()).isZero();
    }

    @Test
    void refusesCallsBeyondItsQueueBound() {
        RequestLimiter limiter = new RequestLimiter(1, 1);
        limiter.run(CompletableFuture::new);
        limiter.run(CompletableFuture::new);
        assertThat(limiter.run(CompletableFuture::new)).failsWithin(0, TimeUnit.SECONDS)
                .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .withCauseInstanceOf(RejectedExecutionException.class);
    }

    /** Regression: calls that complete at once used to start the next call from inside the previous one. */
    @Test
    void manyCallsThatCompleteAtOnceDoNotGrowTheStack() {
        RequestLimiter limiter = new RequestLimiter(1, 200_000);
        CompletableFuture<String> gate = new CompletableFuture<>();
        limiter.run(() -> gate);
        AtomicInteger done = new AtomicInteger();
        for (int i = 0; i < 100_000; i++) {
            limiter.run(() -> CompletableFuture.completedFuture("x")).thenRun(done::incrementAndGet);
        }
        gate.complete("open");
        assertThat(done).hasValue(100_000);
    }

    @Test
    void neverExceedsItsPermitsUnderConcurrentUse() throws Exception {
        RequestLimiter limiter = new RequestLimiter(8, 100_000);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        ExecutorService completer = Executors.newFixedThreadPool(4);
        ExecutorService submitters = Executors.newFixedThreadPool(4);
        List<CompletableFuture<Void>> all = java.util.Collections.synchronizedList(new ArrayList<>());
        try {
            List<CompletableFuture<?>> submitted = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                submitted.add(CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < 2_000; i++) {
                        all.add(limiter.run(() -> {
                            peak.accumulateAndGet(running.incrementAndGet(), Math::max);
                            return CompletableFuture.runAsync(running::decrementAndGet, completer);
                        }));
                    }
                }, submitters));
            }
            CompletableFuture.allOf(submitted.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        } finally {
            completer.shutdownNow();
            submitters.shutdownNow();
        }
        assertThat(all).hasSize(8_000).allMatch(f -> !f.isCompletedExceptionally());
        assertThat(peak.get()).isBetween(1, 8);
        assertThat(limiter.running()).isZero();
    }

    @Test
    void aCancelledResultThatWasAlreadyStartingGivesBackItsPermit() {
        RequestLimiter limiter = new RequestLimiter(1, 10);
        CompletableFuture<String> first = new CompletableFuture<>();
        limiter.run(() -> first);
        CompletableFuture<String> second = limiter.run(() -> {
            throw new CancellationException("never started");
        });
        second.cancel(true);
        first.complete("done");
        assertThat(limiter.running()).isZero();
    }
}
