#!/usr/bin/env bash
# The first seconds of a sale (issue 33), measured as a team evaluating the service would: the packaged jar started
# fresh with the recommended JVM options and the defaults, wrk at 50 connections with a new buyer per request, against
# the references of the same run (bench/README.md). The legs and the summary are the harness's
# (src/test/java/io/seckill/bench/FirstSeconds.java); this script builds and starts it.
#
#   bench/first-seconds.sh [--no-build] [--jar PATH] [-- extra service arguments...]
#
# About 14 minutes on 2 cores. BENCH_WINDOWS, BENCH_WINDOW_SECONDS, BENCH_FLOOD_SECONDS and BENCH_SALE_SERVICES
# (bench/settings.txt) shorten it to check the harness; such a run's figures do not compare. Results go to
# bench/results/<timestamp>-first-seconds/ (summary.md, logs/).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "bench: $*" >&2; exit 1; }
usage() {
  sed -n '2,11p' "$0"
  echo
  echo "Environment (default), from bench/settings.txt:"
  awk -v driver=first-seconds.sh -f "$ROOT/bench/settings.awk" "$ROOT/bench/settings.txt"
}

build=1
JAR=
SERVICE_ARGS=()
while (($#)); do
  case "$1" in
    --no-build) build=0 ;;
    --jar) JAR=$2; build=0; shift ;;
    --) shift; SERVICE_ARGS=("$@"); break ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown option: $1" ;;
  esac
  shift
done
for tool in wrk redis-benchmark java mvn; do
  command -v "$tool" >/dev/null || die "$tool is missing (apt-get install wrk redis-tools; a JDK 17 and Maven)"
done

RUN="$ROOT/bench/results/$(date -u +%Y%m%dT%H%M%SZ)-first-seconds"
mkdir -p "$RUN/logs" "$RUN/work/harness/io/seckill"
# Ctrl-C or SIGTERM during the build says where its log is; from exec on, the harness says it (StopNotice).
trap 'echo "bench: stopped (interrupted); logs in $RUN/logs" >&2; exit 130' INT TERM
# The harness is in the test sources: package compiles it with the service, test-compile alone for another jar.
goal=package
((build)) || goal=test-compile
(cd "$ROOT" && mvn -q -B -DskipTests "$goal") >"$RUN/logs/build.log" 2>&1 || die "the build failed: $RUN/logs/build.log"
JAR=${JAR:-$(ls "$ROOT"/target/seckill-camel-*.jar | sed -n 1p)}
# The run keeps its own copy of the harness, so a rebuild meanwhile cannot change it.
cp -r "$ROOT/target/test-classes/io/seckill/bench" "$RUN/work/harness/io/seckill/"
export MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}
exec java -cp "$RUN/work/harness" io.seckill.bench.Harness first-seconds "$ROOT" "$RUN" "$JAR" "${SERVICE_ARGS[@]}"
