/**
 * The benchmarks: the five source cases (scenarios A to E) uploaded by seven strategies, from a sequential loop to
 * this library and the AWS SDK's Transfer Manager. {@link io.github.boundedupload.benchmarks.BenchmarkMain} runs every
 * measurement in a JVM of its own ({@link io.github.boundedupload.benchmarks.Fork}) and writes
 * {@code docs/benchmarks.md}. Start it with {@code scripts/benchmark.sh}.
 */
package io.github.boundedupload.benchmarks;
