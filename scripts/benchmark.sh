#!/usr/bin/env bash
# Runs the benchmarks (module benchmarks) on LocalStack and on versitygw and writes one report of both:
# docs/benchmarks.md and docs/benchmarks/*.png.
#
#   scripts/benchmark.sh            the full run: the source cases' sizes, 3 rounds of 3 measured runs, on both
#                                   servers, and B's pairs in one JVM (about two hours on 2 cores)
#   scripts/benchmark.sh --quick    small batches, 2 rounds of 1 run, report in benchmarks/target/report/ (a few minutes)
#   scripts/benchmark.sh --scenarios=A,C [--quick]    only some scenarios (report in benchmarks/target/report/)
#   scripts/benchmark.sh --direct   issue 48's measurement only: source 001's batch and large files through the
#                                   application against direct uploads, on both servers, 3 rounds (about 20 minutes),
#                                   written into its section of docs/benchmarks.md (DirectBenchmark); with --quick,
#                                   small files and one round, to benchmarks/target/report/benchmarks-direct.md
#   BOUNDED_UPLOAD_S3_SERVER=versitygw scripts/benchmark.sh    one server only (default: localstack,versitygw; in a
#                                   run on both, D and E, in process, run with LocalStack, and F with versitygw;
#                                   report in benchmarks/target/report/)
#
# Builds the module, starts the S3 servers and Toxiproxy with scripts/test-services.sh (reusing them when they already
# run; installing them into ~/.cache/bounded-upload on first use) and runs the harness on JDK 21+ (virtual threads):
# BENCHMARK_JAVA_HOME, else Temurin 25 where this project's machines have it, else JAVA_HOME.
# Every measurement has a bucket of its own, deleted afterwards; services this script started are stopped at the end.
# BOUNDED_UPLOAD_S3_TLS=true measures over HTTPS (the servers' self-signed certificate; the SDK then signs no chunk of a
# body, as with S3 over HTTPS): scripts/test-services.sh start-tls adds a versitygw speaking HTTPS, LocalStack speaks it
# on its own port; the report goes to benchmarks/target/report-tls unless --out says otherwise.
# Each server's result lines are kept in benchmarks/target/<full|quick>-<server>-results.txt; the report can be written
# again from them without measuring: BenchmarkMain --report-from=FILE,FILE --out=DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

JDK=${BENCHMARK_JAVA_HOME:-}
if [ -z "$JDK" ]; then
  if [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]; then JDK=/usr/lib/jvm/temurin-25-jdk-amd64; else JDK=${JAVA_HOME:-}; fi
fi
JAVA=${JDK:+$JDK/bin/}java
if ! "$JAVA" -version 2>&1 | grep -Eq 'version "(2[1-9]|[3-9][0-9])'; then
  echo "benchmark.sh: needs Java 21 or later for virtual threads; set BENCHMARK_JAVA_HOME" >&2; exit 1
fi

./mvnw -q -pl benchmarks -am package -DskipTests

tls=${BOUNDED_UPLOAD_S3_TLS:-false}
if scripts/test-services.sh status && { [ "$tls" != true ] || scripts/test-services.sh start-tls >/dev/null 2>&1; }; then
  echo "[benchmark] the S3 servers and Toxiproxy already run: using them"
else
  if [ "$tls" = true ]; then scripts/test-services.sh start-tls; else scripts/test-services.sh start; fi
  trap 'scripts/test-services.sh stop' EXIT
fi
scheme=http; vg_port=${BOUNDED_UPLOAD_VERSITYGW_PORT:-7070}; tls_options=()
if [ "$tls" = true ]; then
  scheme=https; vg_port=${BOUNDED_UPLOAD_VERSITYGW_TLS_PORT:-7443}
  store="$(scripts/test-services.sh settings | sed -n 's/^cache=//p')/run/test-truststore.p12"
  tls_options=("-Djavax.net.ssl.trustStore=$store" -Djavax.net.ssl.trustStorePassword=changeit)
fi
# Only the full run of every scenario on both servers is the report of record; a part of it goes beside the quick one.
scale=full
out=docs
for arg in "$@"; do
  case "$arg" in
    --quick) scale=quick; out=benchmarks/target/report ;;
    --scenarios=*) out=benchmarks/target/report ;;
  esac
done
[ -n "${BOUNDED_UPLOAD_S3_SERVER:-}" ] && [ "$BOUNDED_UPLOAD_S3_SERVER" != localstack,versitygw ] && out=benchmarks/target/report
[ "$tls" = true ] && out=benchmarks/target/report-tls
export BOUNDED_UPLOAD_TOXIPROXY_URL=http://127.0.0.1:${BOUNDED_UPLOAD_TOXIPROXY_PORT:-8474}
servers=$(echo "${BOUNDED_UPLOAD_S3_SERVER:-localstack,versitygw}" | tr ',' ' ')
endpoint_of() {
  case "$1" in
    localstack) echo "$scheme://127.0.0.1:${BOUNDED_UPLOAD_LOCALSTACK_PORT:-4566}" ;;
    versitygw) echo "$scheme://127.0.0.1:$vg_port" ;;
    *) echo "benchmark.sh: BOUNDED_UPLOAD_S3_SERVER must list localstack and/or versitygw" >&2; return 1 ;;
  esac
}
classpath="benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)"

if [[ " $* " == *" --direct "* ]]; then
  quick=(); doc=docs/benchmarks.md; direct_files=()
  if [[ " $* " == *" --quick "* ]]; then
    quick=(--quick); doc=benchmarks/target/report/benchmarks-direct.md; mkdir -p benchmarks/target/report
  fi
  for server in $servers; do
    endpoint=$(endpoint_of "$server")
    BOUNDED_UPLOAD_S3_SERVER=$server BOUNDED_UPLOAD_S3_ENDPOINT=$endpoint \
      "$JAVA" -Xmx256m -Dbench.data=benchmarks/target/bench-data ${tls_options[@]+"${tls_options[@]}"} -cp "$classpath" \
      io.github.boundedupload.benchmarks.DirectBenchmark ${quick[@]+"${quick[@]}"} \
      "--results=benchmarks/target/direct-$server-results.txt"
    direct_files+=("benchmarks/target/direct-$server-results.txt")
  done
  "$JAVA" -cp "$classpath" io.github.boundedupload.benchmarks.DirectBenchmark \
    "--report-from=$(IFS=,; echo "${direct_files[*]}")" "--doc=$doc"
  echo "[benchmark] direct uploads: $doc"
  exit 0
fi

kept=()
for server in $servers; do
  endpoint=$(endpoint_of "$server")
  BOUNDED_UPLOAD_S3_SERVER=$server BOUNDED_UPLOAD_S3_ENDPOINT=$endpoint \
    "$JAVA" -Xmx256m -Djava.awt.headless=true -Dbench.data=benchmarks/target/bench-data ${tls_options[@]+"${tls_options[@]}"} \
    -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
    io.github.boundedupload.benchmarks.BenchmarkMain "$@"
  kept+=("benchmarks/target/$scale-$server-results.txt")
  if [ "$tls" = true ]; then # kept apart, so that a plain run's results are not overwritten
    mv "benchmarks/target/$scale-$server-results.txt" "benchmarks/target/$scale-$server-tls-results.txt"
    kept[${#kept[@]}-1]="benchmarks/target/$scale-$server-tls-results.txt"
  fi
done
# One report of every server's run.
"$JAVA" -Xmx256m -Djava.awt.headless=true -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
  io.github.boundedupload.benchmarks.BenchmarkMain "--report-from=$(IFS=,; echo "${kept[*]}")" "--out=$out"
