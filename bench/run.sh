#!/usr/bin/env bash
# The seckill-camel benchmark: the packaged service next to the limits of the parts it is built on (its admission
# script alone in its Redis, raw JDBC batches into H2), measured in one run on one machine. See bench/README.md.
# The legs, the processes and the summary are the harness's (src/test/java/io/seckill/bench/BenchRun.java); this
# script builds it and starts it.
#
#   bench/run.sh            the full run (about 45 minutes on 2 cores)
#   bench/run.sh --quick    short settings, to check the harness itself; its figures mean little
#   bench/run.sh --no-build use target/seckill-camel-*.jar as it is
#
# Results go to bench/results/<timestamp>/ (summary.md and the steady loads' pictures, logs/). Exits 1 when an order
# went missing or was doubled.
set -euo pipefail

usage() {
  cat <<'EOF_USAGE'
usage: bench/run.sh [--quick] [--no-build]

Environment (default; --quick default):
  BENCH_WARMUP_SECONDS      240; 10     wrk load before the first measurement of the service and of the reference
  BENCH_INTAKE_SECONDS      30; 5       wrk run per connection count
  BENCH_CONNECTIONS         "16 64 256"; "16 64"
  BENCH_WRK_THREADS         2
  BENCH_LIMIT_REQUESTS      1000000; 100000   redis-benchmark runs of the admission script, per mode
  BENCH_LIMIT_CLIENTS       50
  BENCH_LIMIT_PIPELINE      16
  BENCH_E2E_RATE            half the best intake rate (orders/s)
  BENCH_E2E_SECONDS         60; 10
  BENCH_E2E_WARMUP_SECONDS  15; 3       the same load first, unmeasured, at least
  BENCH_E2E_WARMUP_MAX_SECONDS 60; 15   ... and until 5 s in a row answered every request within 100 ms, at most
  BENCH_E2E_CONNECTIONS     64
  BENCH_E2E_SAMPLE_EVERY    100         one order in N is followed to its row
  BENCH_E2E_POLL_MILLIS     5           GET /api/orders/{id} interval while following
  BENCH_DRAIN_ORDERS        500000; 50000
  BENCH_FLASH_STOCK         1000
  BENCH_FLASH_REQUESTS      50000; 20000
  BENCH_FLASH_BUYERS        20000; 6000   (the unpaid-winners leg's crowds are a fifth)
  BENCH_FLASH_CONCURRENCY   64
  BENCH_BATCH_SIZE          the service's seckill.stream.batch-size (500)
  BENCH_JAVA_OPTS           JVM options for the service and the reference (default: @jvm.options)
  MALLOC_ARENA_MAX          the pom's service.malloc-arena-max (2), as mvn spring-boot:run sets it
  BENCH_POSTGRES            1           0 skips the PostgreSQL leg; it needs psql and a server on 127.0.0.1:5432
  BENCH_PG_URL              jdbc:postgresql://127.0.0.1:5432/ (user postgres; databases of the run's own, dropped)
  BENCH_PAYMENT_WINDOW_SECONDS 30       the payment window of the unpaid-winners leg
  BENCH_KEEP_DATA           0           1 keeps the run's Redis and database files (deleted after a clean run)
EOF_USAGE
}

quick=0
build=1
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    --no-build) build=0 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "unknown option: $arg" >&2; usage >&2; exit 2 ;;
  esac
done
for tool in wrk redis-benchmark java mvn; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing (apt-get install wrk redis-tools maven; a JDK 17)" >&2; exit 1; }
done

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUN="$ROOT/bench/results/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$RUN/logs" "$RUN/work/harness/io/seckill"
# The harness is in the test sources: package compiles it with the service, test-compile alone with --no-build.
goal=package
((build)) || goal=test-compile
echo "building (mvn $goal)"
(cd "$ROOT" && mvn -q -B -DskipTests "$goal") >"$RUN/logs/build.log" 2>&1 || { echo "bench: the build failed: $RUN/logs/build.log" >&2; exit 1; }
JAR=$(ls "$ROOT"/target/seckill-camel-*.jar 2>/dev/null | head -n 1)
[[ -n "$JAR" ]] || { echo "bench: no target/seckill-camel-*.jar: run without --no-build" >&2; exit 1; }
# The run keeps its own copy of the harness, so a rebuild meanwhile cannot change it.
cp -r "$ROOT/target/test-classes/io/seckill/bench" "$RUN/work/harness/io/seckill/"
# The recommended environment (service.malloc-arena-max) for the service and the reference alike.
MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-$(sed -n 's:.*<service.malloc-arena-max>\(.*\)</service.malloc-arena-max>.*:\1:p' "$ROOT/pom.xml")}
export MALLOC_ARENA_MAX
exec java -Xmx256m -cp "$RUN/work/harness" io.seckill.bench.Harness run "$ROOT" "$RUN" "$JAR" "$quick"
