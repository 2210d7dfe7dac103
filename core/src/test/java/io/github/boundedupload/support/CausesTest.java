package io.github.boundedupload.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** The one walk down a cause chain, shared by the engine, the S3 adapter and the journal. */
class CausesTest {

    @Test
    void unwrapTakesOffTheWrappersOfFuturesOnly() {
        IOException failure = new IOException("refused");
        assertThat(Causes.unwrap(new CompletionException(new ExecutionException(failure)))).isSameAs(failure);
        assertThat(Causes.unwrap(failure)).isSameAs(failure);
        CompletionException empty = new CompletionException(null);
        assertThat(Causes.unwrap(empty)).isSameAs(empty);
    }

    @Test
    void anyLooksAtTheFailureAndEveryCause() {
        IOException wrapped = new IOException("read failed", new InterruptedException());
        assertThat(Causes.any(wrapped, Causes::isInterrupt)).isTrue();
        assertThat(Causes.any(new IOException("refused"), Causes::isInterrupt)).isFalse();
        assertThat(Causes.any(null, t -> true)).isFalse();
        assertThat(Causes.isInterrupt(new InterruptedIOException())).isTrue();
        assertThat(Causes.isInterrupt(new ClosedByInterruptException())).isTrue();
    }

    @Test
    void aChainThatLoopsStillEnds() {
        IOException first = new IOException("first");
        IOException second = new IOException("second", first);
        first.initCause(second);
        assertThat(Causes.any(first, t -> t instanceof InterruptedException)).isFalse();
    }
}
