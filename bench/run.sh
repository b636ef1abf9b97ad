#!/usr/bin/env bash
# The seckill-camel benchmark: the packaged service next to the limits of the parts it is built on (its admission
# script alone in its Redis, raw JDBC batches into H2), measured in one run on one machine. See bench/README.md.
# The legs, the processes and the summary are the harness's (src/test/java/io/seckill/bench/BenchRun.java); this
# script builds it and starts it.
#
#   bench/run.sh            the full run (about 65 minutes on 2 cores)
#   bench/run.sh --quick    short settings, to check the harness itself; its figures mean little
#   bench/run.sh --no-build use target/seckill-camel-*.jar as it is
#
# Results go to bench/results/<timestamp>/ (summary.md and the steady loads' pictures, logs/). Exits 1 when an order
# went missing or was doubled.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() {
  echo "usage: bench/run.sh [--quick] [--no-build]"
  echo
  echo "Environment (default; --quick default), from bench/settings.txt:"
  awk -v driver=run.sh -f "$ROOT/bench/settings.awk" "$ROOT/bench/settings.txt"
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

RUN="$ROOT/bench/results/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$RUN/logs" "$RUN/work/harness/io/seckill"
# Ctrl-C or SIGTERM during the build says where its log is; from exec on, the harness says it (StopNotice).
trap 'echo "bench: stopped (interrupted); logs in $RUN/logs" >&2; exit 130' INT TERM
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
