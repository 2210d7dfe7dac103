package io.github.boundedupload.internal.step;

/**
 * The engine's time: every deadline, timeout and duration it measures is read here, and waits for a deadline ask it
 * whether they may end on their own. {@link #SYSTEM} ({@code System.nanoTime()}, timed waits) but in the model-checked
 * tests, whose clock moves only when the test advances it: there a wait is untimed and the test's clock wakes the
 * waiters when it moves, so that a waiter nobody wakes is a thread blocked for good, which the checker reports. Changes
 * when the engine's sources of time change.
 */
public interface Ticker {

    /** {@code System.nanoTime()}; a wait ends at its deadline. */
    Ticker SYSTEM = new Ticker() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public boolean timedWaits() {
            return true;
        }
    };

    /** Now, in nanoseconds from an arbitrary origin (as {@code System.nanoTime()}). */
    long nanoTime();

    /**
     * Whether a wait for a deadline ends by itself when the deadline passes; {@code false} when the clock moves only as
     * a test says, which then wakes every waiter of the step lock.
     */
    boolean timedWaits();
}
