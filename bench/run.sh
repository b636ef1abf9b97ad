#!/usr/bin/env bash
# The seckill-camel benchmark: the packaged service next to the limits of the parts it is built on (its admission
# script alone in its Redis, raw JDBC batches into H2), measured in one run on one machine. See bench/README.md.
#
#   bench/run.sh            the full run (about 45 minutes on 2 cores)
#   bench/run.sh --quick    short settings, to check the harness itself; its figures mean little
#   bench/run.sh --no-build use target/seckill-camel-*.jar as it is
#
# Durations and sizes are BENCH_* environment variables (listed by --help). Results go to
# bench/results/<timestamp>/ (summary.md and the steady loads' pictures, logs/). Exits non-zero when an order went missing or was doubled.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: bench/run.sh [--quick] [--no-build]

Environment (default; --quick default):
  BENCH_WARMUP_SECONDS      240; 10     wrk load before the first measurement of the service and of the reference
                                        (JIT warm-up: on 2 busy cores the compilers settle after about 4 minutes)
  BENCH_INTAKE_SECONDS      30; 5       wrk run per connection count
  BENCH_CONNECTIONS         "16 64 256"; "16 64"
  BENCH_WRK_THREADS         2
  BENCH_LIMIT_REQUESTS      1000000; 100000   redis-benchmark runs of the admission script, per mode
  BENCH_LIMIT_CLIENTS       50
  BENCH_LIMIT_PIPELINE      16
  BENCH_E2E_RATE            half the best intake rate (orders/s)
  BENCH_E2E_SECONDS         60; 10
  BENCH_E2E_WARMUP_SECONDS  15; 3       the same load first, unmeasured (the service's read path compiles), at least
  BENCH_E2E_WARMUP_MAX_SECONDS 60; 15   ... and until 5 s in a row answered every request within 100 ms, at most
  BENCH_E2E_CONNECTIONS     64
  BENCH_E2E_SAMPLE_EVERY    100         one order in N is followed to its row
  BENCH_E2E_POLL_MILLIS     5           GET /api/orders/{id} interval while following
  BENCH_DRAIN_ORDERS        500000; 50000
  BENCH_FLASH_STOCK         1000
  BENCH_FLASH_REQUESTS      50000; 20000
  BENCH_FLASH_BUYERS        20000; 6000   (the unpaid-winners leg's crowds are a fifth: enough buyers to sell the stock out)
  BENCH_FLASH_CONCURRENCY   64
  BENCH_BATCH_SIZE          the service's seckill.stream.batch-size (500)
  BENCH_JAVA_OPTS           JVM options for the service and the reference (default: @jvm.options, the options
                                        which docs/production.md recommends and mvn spring-boot:run uses)
  MALLOC_ARENA_MAX          the pom's service.malloc-arena-max (2), as mvn spring-boot:run sets it
  BENCH_POSTGRES            1           0 skips the PostgreSQL leg; it needs psql and a server on 127.0.0.1:5432
  BENCH_PG_URL              jdbc:postgresql://127.0.0.1:5432/ (user postgres; a database of the run's own is made
                                        there and dropped at the end)
  BENCH_PAYMENT_WINDOW_SECONDS 30        the payment window of the unpaid-winners leg (its crowds are a fifth of the
                                        flash crowd, so the winners can pay in time)
  BENCH_KEEP_DATA           0           1 keeps the run's Redis and database files (deleted after a clean run)
EOF
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

pick() { if ((quick)); then echo "$2"; else echo "$1"; fi; }
WARMUP_SECONDS=${BENCH_WARMUP_SECONDS:-$(pick 240 10)}
INTAKE_SECONDS=${BENCH_INTAKE_SECONDS:-$(pick 30 5)}
CONNECTIONS=${BENCH_CONNECTIONS:-$(pick "16 64 256" "16 64")}
WRK_THREADS=${BENCH_WRK_THREADS:-2}
LIMIT_REQUESTS=${BENCH_LIMIT_REQUESTS:-$(pick 1000000 100000)}
LIMIT_CLIENTS=${BENCH_LIMIT_CLIENTS:-50}
LIMIT_PIPELINE=${BENCH_LIMIT_PIPELINE:-16}
E2E_RATE=${BENCH_E2E_RATE:-}
E2E_SECONDS=${BENCH_E2E_SECONDS:-$(pick 60 10)}
E2E_WARMUP_SECONDS=${BENCH_E2E_WARMUP_SECONDS:-$(pick 15 3)}
E2E_WARMUP_MAX_SECONDS=${BENCH_E2E_WARMUP_MAX_SECONDS:-$(pick 60 15)}
E2E_CONNECTIONS=${BENCH_E2E_CONNECTIONS:-64}
E2E_SAMPLE_EVERY=${BENCH_E2E_SAMPLE_EVERY:-100}
E2E_POLL_MILLIS=${BENCH_E2E_POLL_MILLIS:-5}
DRAIN_ORDERS=${BENCH_DRAIN_ORDERS:-$(pick 500000 50000)}
FLASH_STOCK=${BENCH_FLASH_STOCK:-1000}
FLASH_REQUESTS=${BENCH_FLASH_REQUESTS:-$(pick 50000 20000)}
FLASH_BUYERS=${BENCH_FLASH_BUYERS:-$(pick 20000 6000)}
FLASH_CONCURRENCY=${BENCH_FLASH_CONCURRENCY:-64}
# The recommended options, the argument file jvm.options, as mvn spring-boot:run uses them.
RECOMMENDED_JAVA_OPTS="@$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/jvm.options"
JAVA_OPTS=${BENCH_JAVA_OPTS-$RECOMMENDED_JAVA_OPTS}
# And the recommended environment (service.malloc-arena-max), for the service and the reference alike.
MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-$(sed -n 's:.*<service.malloc-arena-max>\(.*\)</service.malloc-arena-max>.*:\1:p' "$(dirname "${BASH_SOURCE[0]}")/../pom.xml")}
export MALLOC_ARENA_MAX
POSTGRES=${BENCH_POSTGRES:-1}
PG_URL=${BENCH_PG_URL:-jdbc:postgresql://127.0.0.1:5432/}
PAYMENT_WINDOW=${BENCH_PAYMENT_WINDOW_SECONDS:-30}
KEEP_DATA=${BENCH_KEEP_DATA:-0}

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BATCH_SIZE=${BENCH_BATCH_SIZE:-$(awk '/^  stream:/ { s = 1; next } /^  [a-z]/ { s = 0 } s && /batch-size:/ { print $2; exit }' \
  "$ROOT/src/main/resources/application.yaml")}
# One shard, so every order of the run is on seckill:{s0}:orders (the contract's key layout).
STREAM='seckill:{s0}:orders'
WRITER_ROUTE=order-writer
MAX_STOCK=10000000

# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
need() { command -v "$1" >/dev/null || die "$1 is missing: $2"; }
need wrk "apt-get install wrk"
need redis-benchmark "apt-get install redis-tools"
need redis-cli "apt-get install redis-tools"
need curl "apt-get install curl"
need unzip "apt-get install unzip"
need java "install a JDK 17"
need javac "install a JDK 17"
need mvn "apt-get install maven"
[[ "$DRAIN_ORDERS" -le "$MAX_STOCK" ]] || die "BENCH_DRAIN_ORDERS is at most $MAX_STOCK (the largest voucher stock)"

RUN="$ROOT/bench/results/$(date -u +%Y%m%dT%H%M%SZ)"
LOGS="$RUN/logs"
WORK="$RUN/work"
mkdir -p "$LOGS" "$WORK"
SERVICE_PID=
SERVICE_DIR=
REFERENCE_PID=
CHILD_PID=
PG_DATABASES=()
# The admission script, as the service runs it; the bench's own uses of it (limit, backlog) pass the same keys.
ADMIT_SCRIPT="$ROOT/lua/admitOrder-6.lua"
admit_keys() {
  echo "seckill:{s0}:voucher:$1 seckill:{s0}:buyers:$1 $STREAM $STREAM:due seckill:{s0}:rate-limit:buyer:bench" \
    "seckill:{s0}:rate-limit:address:bench"
}
# The payment window of the throughput legs (1 to 3), longer than the run: with the service's default (15 min) the
# warm-up's orders fell due while leg 1 still ran (it takes 17 minutes on a slow day), so their cancellations took
# CPU from the drain, and the verification counted the rows after the service stopped, a second of cancellations
# after it had read what Redis sold (2026-11-23: 215 rows "missing", all of them cancelled meanwhile, their units
# back on sale in the next leg). The unpaid winners' leg measures the expiry, with a window of its own.
THROUGHPUT_WINDOW=(--seckill.order.payment-timeout=24h)
# Every leg but 2b serves the API on Tomcat (platform-http), as every run in bench/runs measured it; the service's
# default is netty-http since git ae5ab41, measured in leg 2b.
TOMCAT=(--seckill.api.engine=platform-http)
# The script's ARGV after orderId, voucherId, userId: the payment window in ms (the throughput legs'), then both
# rate limits off (ARGV[5] to ARGV[9]), as in the service's limits-off runs.
PAYMENT_TIMEOUT_MILLIS=86400000
NO_LIMITS=(0 0 0 0 0)

# Runs a command as the one tracked child, so an interrupted run stops it too.
track() {
  "$@" &
  CHILD_PID=$!
  local status=0
  wait "$CHILD_PID" || status=$?
  CHILD_PID=
  return "$status"
}


stop_service() {
  [[ -z "$SERVICE_PID" ]] || stop_pid "$SERVICE_PID" 90
  SERVICE_PID=
  # A JVM that did not exit normally leaves its embedded redis-server running; its pid file says which.
  local pid_file="$SERVICE_DIR/data/redis/redis.pid" redis_pid
  if [[ -n "$SERVICE_DIR" && -f "$pid_file" ]]; then
    redis_pid=$(cat "$pid_file")
    if grep -q redis-server "/proc/$redis_pid/cmdline" 2>/dev/null; then
      stop_pid "$redis_pid" 30
    fi
  fi
}

stop_reference() {
  [[ -z "$REFERENCE_PID" ]] || stop_pid "$REFERENCE_PID" 30
  REFERENCE_PID=
}

psql_server() { psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -U postgres -d postgres -c "$1"; }

cleanup() {
  local status=$?
  trap - EXIT
  ((status == 0)) || echo "bench: stopped (exit $status); logs in $LOGS" >&2
  if [[ -n "$CHILD_PID" ]]; then
    kill -TERM "$CHILD_PID" 2>/dev/null || true
    wait "$CHILD_PID" 2>/dev/null || true
  fi
  stop_reference
  stop_service
  if ((KEEP_DATA == 0)); then
    for db in "${PG_DATABASES[@]}"; do
      psql_server "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
    done
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the service, the reference controller and the Java side of the harness -------------------------------------

# The harness's Java is in the test sources (src/test/java/io/seckill/bench): package compiles it with the service,
# and --no-build compiles it alone. The run keeps its own copy, so a rebuild meanwhile cannot change it.
if ((build)); then
  say "building the service and the harness (mvn package)"
  (cd "$ROOT" && mvn -q -B -DskipTests package) >"$LOGS/build.log" 2>&1 || die "the build failed: $LOGS/build.log"
else
  say "compiling the harness (mvn test-compile)"
  (cd "$ROOT" && mvn -q -B test-compile) >"$LOGS/build.log" 2>&1 || die "the harness did not compile: $LOGS/build.log"
fi
JAR=$(ls "$ROOT"/target/seckill-camel-*.jar 2>/dev/null | head -n 1)
[[ -n "$JAR" ]] || die "no target/seckill-camel-*.jar: run without --no-build"
unzip -q -o "$JAR" 'BOOT-INF/lib/*' -d "$WORK/jar"
LIB="$WORK/jar/BOOT-INF/lib"
mkdir -p "$WORK/harness/io/seckill"
cp -r "$ROOT/target/test-classes/io/seckill/bench" "$WORK/harness/io/seckill/"
# On the jar's own libraries: the JDBC drivers are the very ones the service writes with.
bench() { track java -Xms256m -Xmx1g -cp "$WORK/harness:$LIB/*" io.seckill.bench.Harness "$@"; }
compile_reference

LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg)

# Starts the packaged jar as an operator would, from DIR (the embedded defaults put ./data there; the routes come
# from the jar), on a free port, one stream shard; sets SERVICE_PID, BASE, REDIS_PORT, REDIS_PID, and exports
# REDISCLI_AUTH (the embedded Redis's password, from its data directory) for redis-cli, the harness and the reference.
# CONFIG is left out of the embedded Redis's refused commands: the bench sets appendfsync and the latency monitor on
# the running server (a production service refuses it; docs/security.md).
start_service() { # dir log extra-arguments...
  SERVICE_DIR=$1
  local log=$2
  shift 2
  mkdir -p "$SERVICE_DIR"
  say "starting the service in $SERVICE_DIR, log in $log"
  # shellcheck disable=SC2086
  # The JVM's stop-the-world pauses (garbage collection and the rest), for the steady loads' stall reports.
  SAFEPOINT_LOG="${log%.log}-safepoints.log"
  (cd "$SERVICE_DIR" && exec java $JAVA_OPTS -Xlog:safepoint=info:file="$SAFEPOINT_LOG"::filecount=0 -jar "$JAR" --server.port=0 \
    --seckill.api.management-port=0 --seckill.stream.shards=1 --seckill.redis.refused-commands=module,debug,acl,shutdown \
    --seckill.stream.batch-size="$BATCH_SIZE" "$@") >"$log" 2>&1 &
  SERVICE_PID=$!
  # When its JVM started (epoch ms; the process's start in the kernel's clock ticks since boot, against the uptime
  # now): the safepoint log is stamped with the JVM's uptime, jvm_stalls picks a load's part of it by the clock.
  SERVICE_STARTED_MS=$(awk -v hz="$(getconf CLK_TCK)" -v now="$(date +%s%3N)" -v up="$(cut -d' ' -f1 /proc/uptime)" \
    '{ sub(/^.*\) /, ""); printf "%.0f", now - (up - $20 / hz) * 1000 }' "/proc/$SERVICE_PID/stat")
  local deadline=$((SECONDS + 180))
  until grep -Eq 'Started [A-Za-z]+ in [0-9.]+ seconds' "$log"; do
    kill -0 "$SERVICE_PID" 2>/dev/null || die "the service exited during start-up: $log"
    ((SECONDS < deadline)) || die "the service did not start in 180 s: $log"
    sleep 0.5
  done
  local http_port management_port
  # The API's port: Netty's with seckill.api.engine=netty-http, else Tomcat's, which always carries the probes.
  management_port=$(grep -oP 'Tomcat started on port \K[0-9]+' "$log" | sed -n 1p)
  http_port=$( (grep -oP 'API listening on port \K[0-9]+' "$log"; echo "$management_port") | sed -n 1p)
  REDIS_PORT=$(grep -oP 'Embedded Redis listening on 127\.0\.0\.1:\K[0-9]+' "$log" | head -n 1)
  [[ -n "$http_port" && -n "$REDIS_PORT" ]] || die "no HTTP or Redis port in $log"
  # The API answers 503 until the service's own start-up warm-up is done and readiness says UP.
  until curl -sf -o /dev/null "http://127.0.0.1:$management_port/actuator/health/readiness"; do
    kill -0 "$SERVICE_PID" 2>/dev/null || die "the service exited during start-up: $log"
    ((SECONDS < deadline)) || die "the service was not ready in 180 s: $log"
    sleep 0.5
  done
  REDIS_PID=$(cat "$SERVICE_DIR/data/redis/redis.pid")
  REDISCLI_AUTH=$(cat "$SERVICE_DIR/data/redis/password")
  export REDISCLI_AUTH
  BASE="http://127.0.0.1:$http_port"
  SERVICE_LOG=$log
  say "service pid $SERVICE_PID on $BASE, embedded Redis pid $REDIS_PID on port $REDIS_PORT"
}

rcli() { redis-cli -p "$REDIS_PORT" "$@"; }
# CPU time (µs, user + system) a process has used, from /proc/PID/stat read past the name's ")" (Java's thread
# and process names may hold spaces, which would shift the fields for a plain awk).
cpu_us() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.0f", ($12 + $13) * 1e6 / hz }' "/proc/$1/stat"; }
# The same for every PostgreSQL server process (postmaster and backends; a backend that exits meanwhile is lost).
pg_cpu_us() {
  local pid total=0
  for pid in $(pgrep -x postgres); do total=$((total + $(cpu_us "$pid" 2>/dev/null || echo 0))); done
  echo "$total"
}
# Runs a command and appends to FILE the CPU each named process spent per order meanwhile (µs): the drain's and
# its baseline's budget on the shared CPUs. NAMES: jvm=PID, redis=PID, postgres (all its processes).
with_cpu_per_order() { # file orders names... -- command...
  local file=$1 orders=$2 name
  shift 2
  local -a names=() from=()
  while [[ "$1" != -- ]]; do names+=("$1"); shift; done
  shift
  for name in "${names[@]}"; do
    if [[ "$name" == postgres ]]; then from+=("$(pg_cpu_us)"); else from+=("$(cpu_us "${name#*=}")"); fi
  done
  "$@" >"$file"
  local i now
  for i in "${!names[@]}"; do
    name=${names[$i]}
    if [[ "$name" == postgres ]]; then now=$(pg_cpu_us); else now=$(cpu_us "${name#*=}"); fi
    echo "cpu_us_per_order_${name%%=*}=$(calc "($now - ${from[$i]}) / $orders" 1)" >>"$file"
  done
}
service_alive() { kill -0 "$SERVICE_PID" 2>/dev/null || die "the service is no longer running: $SERVICE_LOG"; }
VOUCHERS=()
# Creates a voucher on sale from now on, as VOUCHER. An admin verb: the service runs without an operator password
# here, so this machine (the loopback) creates vouchers without a login; payments, unsigned, likewise.
new_voucher() {
  VOUCHER=$(curl -sf -X POST "$BASE/api/vouchers" -H 'Content-Type: application/json' \
    -d "{\"title\":\"bench $1\",\"stock\":$2}" | sed -nE 's/.*"id":([0-9]+).*/\1/p')
  [[ -n "$VOUCHER" ]] || die "could not create voucher '$1'"
  VOUCHERS+=("$VOUCHER")
}
remaining() { curl -sf "$BASE/api/vouchers/$1" | sed -nE 's/.*"remaining":([0-9-]+).*/\1/p'; }
stock() { curl -sf "$BASE/api/vouchers/$1" | sed -nE 's/.*"stock":([0-9]+).*/\1/p'; }
wait_stream_empty() {
  local deadline=$((SECONDS + 600))
  until [[ "$(rcli XLEN "$STREAM")" == 0 ]]; do
    ((SECONDS < deadline)) || die "the order stream did not empty in 600 s"
    sleep 0.2
  done
}
peak_rss_mb() { awk '/^VmHWM/ { printf "%d", $2 / 1024 }' "/proc/$1/status"; }
# Writing 5 to clear_refs resets the peak resident set size (VmHWM) of a process.
reset_peak_rss() { echo 5 >"/proc/$1/clear_refs" 2>/dev/null; }
# What Redis says each voucher of this service run sold, as VOUCHER=ROWS words for `bench verify`.
sold_per_voucher() {
  local id
  for id in "${VOUCHERS[@]}"; do
    printf '%s=%s ' "$id" "$(($(stock "$id") - $(remaining "$id")))"
  done
}

wrk_run() { # url voucher connections seconds results [expected-status] [xff]
  local threads=$WRK_THREADS
  ((threads <= $3)) || threads=$3
  track wrk -t "$threads" -c "$3" -d "${4}s" --timeout 10s --latency -s "$ROOT/bench/intake.lua" "$1" -- "$2" \
    "${6:-202}" "${7:-}" >"$5"
}
# Answers of the expected status per second in a wrk result: the best level sets the later legs' load (the summary's
# figures are the harness's, from the same results).
wrk_rate() { calc "($(val bench_requests "$1") - $(val bench_unexpected "$1")) / ($(val bench_duration_us "$1") / 1e6)"; }

# Stops the writer, admits ORDERS straight into Redis with the admission script (EVALSHA through redis-cli --pipe,
# buyers 1..N, ids JdbcBaseline.FIRST_ORDER_ID + n), starts the writer and times the stream to empty. Results in FILE.
drain_run() { # label results [1: count PostgreSQL's CPU too]
  say "drain ($1): stopping the writer, then $DRAIN_ORDERS orders admitted straight into Redis"
  bench route "$SERVICE_PID" "$WRITER_ROUTE" stop >"$LOGS/route-stop-$1.txt"
  new_voucher "drain $1" "$DRAIN_ORDERS"
  DRAIN_VOUCHER=$VOUCHER
  local sha
  sha=$(rcli SCRIPT LOAD "$(cat "$ADMIT_SCRIPT")")
  # shellcheck disable=SC2046
  awk -v n="$DRAIN_ORDERS" -v sha="$sha" -v v="$DRAIN_VOUCHER" -v keys="$(admit_keys "$DRAIN_VOUCHER")" \
    -v window="$PAYMENT_TIMEOUT_MILLIS" -v limits="${NO_LIMITS[*]}" '
    function bulk(s) { return "$" length(s) "\r\n" s "\r\n" }
    BEGIN {
      k = split(keys, key, " ")
      l = split(limits, limit, " ")
      head = "*" (3 + k + 4 + l) "\r\n" bulk("EVALSHA") bulk(sha) bulk(k)
      for (j = 1; j <= k; j++) head = head bulk(key[j])
      tail = bulk(window)
      for (j = 1; j <= l; j++) tail = tail bulk(limit[j])
      for (i = 1; i <= n; i++) printf "%s%s%s%s%s", head, bulk("8" sprintf("%018d", i)), bulk(v), bulk(i), tail
    }' | rcli --pipe >"$LOGS/backlog-$1.txt"
  reset_peak_rss "$SERVICE_PID" && RSS_DRAIN_FROM="drain start" || RSS_DRAIN_FROM="service start"
  say "drain ($1): starting the writer on $(rcli XLEN "$STREAM") entries"
  local cpu=("jvm=$SERVICE_PID" "redis=$REDIS_PID")
  ((!${3:-0})) || cpu+=(postgres)
  local ran waited
  read -r ran waited _ <"/proc/$REDIS_PID/schedstat"
  with_cpu_per_order "$2" "$DRAIN_ORDERS" "${cpu[@]}" -- \
    bench drain "$SERVICE_PID" "$REDIS_PORT" "$STREAM" "$DRAIN_ORDERS" "$WRITER_ROUTE"
  redis_schedule "$ran" "$waited" >>"$2"
  say "drain ($1): $(val drain_rate "$2") orders/s; peak RSS $(peak_rss_mb "$SERVICE_PID") MB"
}

# How long Redis's main thread ran and how long it waited runnable for a CPU since RAN and WAITED (ns, the first two
# fields of /proc/PID/schedstat): every read and acknowledgement of the drain waits for that too, on top of its work.
redis_schedule() { # ran-ns waited-ns
  local ran waited
  read -r ran waited _ <"/proc/$REDIS_PID/schedstat"
  echo "redis_ran_ms=$(((ran - $1) / 1000000))"
  echo "redis_waited_ms=$(((waited - $2) / 1000000))"
}

# Redis's latency monitor as one line: "event max ms (in n s, total ms), ..." for each event of 10 ms or more from
# FROM_MS (epoch ms: the measured part of a load, after its warm-up) on. LATENCY HISTORY keeps one sample per second,
# the second's longest, so n is how many seconds had such a stall and the total a lower bound of the time lost to it.
redis_stalls() { # from-ms
  local event stall stalls=""
  while read -r event; do
    [[ -n "$event" ]] || continue
    stall=$(rcli LATENCY HISTORY "$event" | paste - - | awk -v from=$(($1 / 1000)) -v event="$event" '
      $1 >= from { n++; t += $2; if ($2 > max) max = $2 }
      END { if (n) printf "%s %d ms (in %d s, %d ms)", event, max, n, t }')
    [[ -z "$stall" ]] || stalls+="${stalls:+, }$stall"
  done < <(rcli LATENCY LATEST | paste - - - - | cut -f1)
  echo "redis_stalls=$stalls"
}
# The service JVM's longest pauses from FROM_MS (epoch ms) on, read off its safepoint log (each line stamped with
# the JVM's uptime), as one line: "operation ms, ..." for the three longest, and how many lasted 10 ms or more.
jvm_stalls() { # from-ms
  local from_uptime_ms=$(($1 - SERVICE_STARTED_MS))
  echo "jvm_stalls=$(sed -nE 's/^\[([0-9.]+)s\].*Safepoint "([^"]+)".*Total: ([0-9]+) ns.*/\1 \3 \2/p' "$SAFEPOINT_LOG" \
    | awk -v from="$from_uptime_ms" '$1 * 1000 >= from { print $2, $3 }' | sort -rn \
    | awk '$1 >= 10000000 { n++ } NR <= 3 { printf "%s%s %.0f ms", sep, $2, $1 / 1e6; sep = ", " }
        END { printf " (%d of 10 ms or more)", n }')"
}
# A steady load's picture, second by second (bench chart): beside the summary, named after the load's log.
picture() { # results
  echo "$RUN/$(basename "${1%.txt}").svg"
}
steady_run() { # label results
  say "steady load ($1): $E2E_RATE orders/s, unmeasured until steady ($E2E_WARMUP_SECONDS–$E2E_WARMUP_MAX_SECONDS s), then $E2E_SECONDS s, following one in $E2E_SAMPLE_EVERY to its row"
  new_voucher "steady $1" $MAX_STOCK
  # Redis's own record of the events that stalled it (an fsync of the append-only file, a slow command).
  rcli CONFIG SET latency-monitor-threshold 10 >/dev/null
  rcli LATENCY RESET >/dev/null
  bench load "$BASE" "$VOUCHER" "$E2E_RATE" "$E2E_SECONDS" "$E2E_WARMUP_SECONDS" "$E2E_WARMUP_MAX_SECONDS" \
    "$E2E_SAMPLE_EVERY" "$E2E_POLL_MILLIS" "$E2E_CONNECTIONS" >"$2"
  redis_stalls "$(val load_measured_from_ms "$2")" >>"$2"
  jvm_stalls "$(val load_measured_from_ms "$2")" >>"$2"
  bench chart "$2" "$(picture "$2")" "Steady load ($1): $(group "$E2E_RATE") orders/s asked, $E2E_CONNECTIONS connections"
  service_alive
  say "steady load ($1): steady after $(val load_warm_up_seconds "$2") s ($(val load_warm_up_steady "$2")); POST p99 $(val post_p99 "$2") ms, 202 → row p99 $(val e2e_p99 "$2") ms"
}

# The admission script alone at E2E_RATE for E2E_SECONDS, straight to Redis (the harness's script load: open loop, as the steady
# load, on keys of its own), and what stalled Redis meanwhile. Results in FILE.
script_steady_run() { # appendfsync results
  say "steady load: the admission script alone, $E2E_RATE/s for $E2E_SECONDS s straight to Redis (appendfsync $1)"
  fresh_limit_keys
  rcli CONFIG SET latency-monitor-threshold 10 >/dev/null
  rcli LATENCY RESET >/dev/null
  bench script "$REDIS_PORT" "$E2E_RATE" "$E2E_SECONDS" "$E2E_WARMUP_SECONDS" "$E2E_WARMUP_MAX_SECONDS" \
    "$E2E_CONNECTIONS" "$SHA" "${#LIMIT_KEYS[@]}" \
    "${LIMIT_KEYS[@]}" __n__ 1 __n__ "$PAYMENT_TIMEOUT_MILLIS" "${NO_LIMITS[@]}" >"$2"
  redis_stalls "$(val script_measured_from_ms "$2")" >>"$2"
  bench chart "$2" "$(picture "$2")" "The admission script alone, appendfsync $1: $(group "$E2E_RATE")/s asked, $E2E_CONNECTIONS connections"
  rcli UNLINK "${LIMIT_KEYS[@]}" >/dev/null
  say "steady load: the script alone, steady after $(val script_warm_up_seconds "$2") s ($(val script_warm_up_steady "$2")); p99 $(val script_p99 "$2") ms (appendfsync $1)"
}

# ================================ leg 1: H2, rate limits off ======================================================

start_service "$RUN/h2" "$LOGS/service-h2.log" "${THROUGHPUT_WINDOW[@]}" "${TOMCAT[@]}" \
  --seckill.rate-limit.per-buyer.rate=0 --seckill.rate-limit.per-address.rate=0
H2_PID=$SERVICE_PID
REDIS_VERSION=$(rcli INFO server | sed -n 's/^redis_version://p' | tr -d '\r')

# --- intake: wrk, every order from a new buyer -------------------------------------------------------------------

say "warming up: $WARMUP_SECONDS s of wrk at 64 connections"
new_voucher warm-up $MAX_STOCK
wrk_run "$BASE" "$VOUCHER" 64 "$WARMUP_SECONDS" "$LOGS/wrk-warm-up.txt"
service_alive

BEST_RATE=0
BEST_CONNECTIONS=
for connections in $CONNECTIONS; do
  say "intake: $INTAKE_SECONDS s of wrk at $connections connections"
  out="$LOGS/wrk-$connections.txt"
  new_voucher "intake $connections" $MAX_STOCK
  wrk_run "$BASE" "$VOUCHER" "$connections" "$INTAKE_SECONDS" "$out"
  service_alive
  rate=$(wrk_rate "$out")
  if ((rate > BEST_RATE)); then
    BEST_RATE=$rate
    BEST_CONNECTIONS=$connections
  fi
done
say "intake: best $BEST_RATE accepted/s at $BEST_CONNECTIONS connections"

# --- the sold-out path: every request refused ---------------------------------------------------------------------

say "sold out: $INTAKE_SECONDS s of wrk at $BEST_CONNECTIONS connections on a voucher with no unit left"
new_voucher sold-out 1
curl -sf -o /dev/null -X POST "$BASE/api/vouchers/$VOUCHER/orders" -H 'X-User-Id: 1' || die "could not take the last unit"
SOLD_OUT_OUT="$LOGS/wrk-sold-out.txt"
wrk_run "$BASE" "$VOUCHER" "$BEST_CONNECTIONS" "$INTAKE_SECONDS" "$SOLD_OUT_OUT" 409
service_alive
SOLD_OUT_RATE=$(wrk_rate "$SOLD_OUT_OUT")
say "sold out: $SOLD_OUT_RATE refusals/s"

# --- the other append-only fsync policy (CONFIG SET on the running embedded Redis) -------------------------------

FSYNC_DEFAULT=$(rcli CONFIG GET appendfsync | tail -n 1)
if [[ "$FSYNC_DEFAULT" == always ]]; then FSYNC_OTHER=everysec; else FSYNC_OTHER=always; fi
say "fsync: $INTAKE_SECONDS s of wrk at $BEST_CONNECTIONS connections with appendfsync $FSYNC_OTHER (default $FSYNC_DEFAULT)"
rcli CONFIG SET appendfsync "$FSYNC_OTHER" >/dev/null
FSYNC_OUT="$LOGS/wrk-fsync-$FSYNC_OTHER.txt"
new_voucher "fsync $FSYNC_OTHER" $MAX_STOCK
wrk_run "$BASE" "$VOUCHER" "$BEST_CONNECTIONS" "$INTAKE_SECONDS" "$FSYNC_OUT"
rcli CONFIG SET appendfsync "$FSYNC_DEFAULT" >/dev/null
service_alive
FSYNC_OTHER_RATE=$(wrk_rate "$FSYNC_OUT")
RSS_INTAKE=$(peak_rss_mb "$SERVICE_PID")
say "fsync: $FSYNC_OTHER_RATE accepted/s with $FSYNC_OTHER; service peak RSS through the intake $RSS_INTAKE MB"

# --- the reference: a plain Spring MVC controller running the same script on the same Redis -----------------------

REFERENCE_LOG="$LOGS/reference.log"
say "reference: starting the plain Spring MVC controller on the service's Redis"
# shellcheck disable=SC2086
SPRING_DATA_REDIS_PASSWORD=$REDISCLI_AUTH java $JAVA_OPTS -cp "$REFERENCE_CP" reference.ReferenceIntake \
  --server.port=0 --spring.main.banner-mode=off --spring.data.redis.port="$REDIS_PORT" --reference.script="$ADMIT_SCRIPT" >"$REFERENCE_LOG" 2>&1 &
REFERENCE_PID=$!
deadline=$((SECONDS + 120))
until grep -Eq 'Started [A-Za-z]+ in [0-9.]+ seconds' "$REFERENCE_LOG"; do
  kill -0 "$REFERENCE_PID" 2>/dev/null || die "the reference exited during start-up: $REFERENCE_LOG"
  ((SECONDS < deadline)) || die "the reference did not start in 120 s: $REFERENCE_LOG"
  sleep 0.5
done
REFERENCE_BASE="http://127.0.0.1:$(grep -oP 'Tomcat started on port \K[0-9]+' "$REFERENCE_LOG" | head -n 1)"
new_voucher reference-warm-up $MAX_STOCK
say "reference: warming up, $WARMUP_SECONDS s of wrk at 64 connections"
wrk_run "$REFERENCE_BASE" "$VOUCHER" 64 "$WARMUP_SECONDS" "$LOGS/wrk-reference-warm-up.txt"
REFERENCE_RATE=0
REFERENCE_CONNECTIONS=
for connections in $CONNECTIONS; do
  say "reference: $INTAKE_SECONDS s of wrk at $connections connections"
  out="$LOGS/wrk-reference-$connections.txt"
  new_voucher "reference $connections" $MAX_STOCK
  wrk_run "$REFERENCE_BASE" "$VOUCHER" "$connections" "$INTAKE_SECONDS" "$out"
  rate=$(wrk_rate "$out")
  if ((rate > REFERENCE_RATE)); then
    REFERENCE_RATE=$rate
    REFERENCE_CONNECTIONS=$connections
  fi
done
RSS_REFERENCE=$(peak_rss_mb "$REFERENCE_PID")
stop_reference
service_alive
say "reference: best $REFERENCE_RATE accepted/s at $REFERENCE_CONNECTIONS connections; peak RSS $RSS_REFERENCE MB"

# --- the intake limit: the admission script alone, in the same Redis ---------------------------------------------

say "waiting for the writer to catch up"
wait_stream_empty
SHA=$(rcli SCRIPT LOAD "$(cat "$ADMIT_SCRIPT")")
# Keys of their own (bench:limit:*), so the writer never sees these orders; the script's work is the same.
read -r -a LIMIT_KEYS <<<"$(admit_keys limit | sed 's/seckill:{s0}:\([a-z]*\):limit/bench:limit:\1/g; s/seckill:{s0}:/bench:limit:/g')"
fresh_limit_keys() {
  rcli UNLINK "${LIMIT_KEYS[@]}" >/dev/null
  rcli HSET "${LIMIT_KEYS[0]}" stock 1000000000 beginAt 0 >/dev/null
}
limit_run() { # pipeline results
  fresh_limit_keys
  track redis-benchmark -p "$REDIS_PORT" -a "$REDISCLI_AUTH" -c "$LIMIT_CLIENTS" -P "$1" -n "$LIMIT_REQUESTS" -r 2000000000 --csv \
    EVALSHA "$SHA" "${#LIMIT_KEYS[@]}" "${LIMIT_KEYS[@]}" __rand_int__ 1 __rand_int__ "$PAYMENT_TIMEOUT_MILLIS" \
    "${NO_LIMITS[@]}" >"$2"
  rcli UNLINK "${LIMIT_KEYS[@]}" >/dev/null
}
csv_field() { tail -n 1 "$2" | awk -F'","' -v f="$1" '{ gsub(/"/, "", $f); print $f }'; }
say "intake limit: $LIMIT_REQUESTS admission scripts, $LIMIT_CLIENTS clients, no pipelining"
limit_run 1 "$LOGS/redis-benchmark-unpipelined.csv"
say "intake limit: $LIMIT_REQUESTS admission scripts, $LIMIT_CLIENTS clients, pipeline $LIMIT_PIPELINE"
limit_run "$LIMIT_PIPELINE" "$LOGS/redis-benchmark-pipelined.csv"
LIMIT_RATE=$(calc "$(csv_field 2 "$LOGS/redis-benchmark-unpipelined.csv")")
LIMIT_RATE_PIPELINED=$(calc "$(csv_field 2 "$LOGS/redis-benchmark-pipelined.csv")")
say "intake limit: $LIMIT_RATE/s unpipelined, $LIMIT_RATE_PIPELINED/s pipelined"

# --- end to end at half load, flash crowd, drain -----------------------------------------------------------------

E2E_RATE=${E2E_RATE:-$((BEST_RATE / 2))}
((E2E_RATE > 0)) || die "no intake rate measured to halve"
E2E_OUT="$LOGS/steady-load-h2.txt"
steady_run h2 "$E2E_OUT"
# The same load with the other fsync policy: what of the POST latency is the disk's.
E2E_FSYNC_OUT="$LOGS/steady-load-h2-$FSYNC_OTHER.txt"
rcli CONFIG SET appendfsync "$FSYNC_OTHER" >/dev/null
steady_run "h2, appendfsync $FSYNC_OTHER" "$E2E_FSYNC_OUT"
# The admission script alone at the same rate, straight to the same Redis, with each policy: the latency Redis and
# this machine's disk give at that rate without the service, the floor under its POST latency.
SCRIPT_FSYNC_OUT="$LOGS/steady-script-$FSYNC_OTHER.txt"
script_steady_run "$FSYNC_OTHER" "$SCRIPT_FSYNC_OUT"
rcli CONFIG SET appendfsync "$FSYNC_DEFAULT" >/dev/null
SCRIPT_OUT="$LOGS/steady-script-$FSYNC_DEFAULT.txt"
script_steady_run "$FSYNC_DEFAULT" "$SCRIPT_OUT"

new_voucher flash "$FLASH_STOCK"
FLASH_VOUCHER=$VOUCHER
FLASH_OUT="$LOGS/flash-crowd.txt"
say "flash crowd: $FLASH_REQUESTS orders from $FLASH_BUYERS buyers for a stock of $FLASH_STOCK"
bench flash "$BASE" "$FLASH_VOUCHER" "$FLASH_REQUESTS" "$FLASH_BUYERS" "$FLASH_CONCURRENCY" 42 \
  "$WORK/flash-accepted.csv" >"$FLASH_OUT"
service_alive
wait_stream_empty
FLASH_REMAINING=$(remaining "$FLASH_VOUCHER")
FLASH_BUYERS_IN_REDIS=$(rcli SCARD "seckill:{s0}:buyers:$FLASH_VOUCHER")

DRAIN_OUT="$LOGS/drain-h2.txt"
drain_run h2 "$DRAIN_OUT"
RSS_DRAIN=$(peak_rss_mb "$SERVICE_PID")
RSS_REDIS=$(peak_rss_mb "$REDIS_PID")

DEAD_LETTERS=$(rcli XLEN "$STREAM:dead")
read -r -a SOLD <<<"$(sold_per_voucher)"
say "stopping the service"
stop_service

VERIFY_OUT="$LOGS/verify-h2.txt"
bench verify "jdbc:h2:file:$RUN/h2/data/db/seckill" sa "$FLASH_VOUCHER" "$WORK/flash-accepted.csv" "${SOLD[@]}" >"$VERIFY_OUT"

say "raw JDBC baseline: $DRAIN_ORDERS rows in batches of $BATCH_SIZE into a fresh H2 file"
JDBC_OUT="$LOGS/jdbc-baseline-h2.txt"
bench jdbc "jdbc:h2:file:$WORK/baseline/seckill;WRITE_DELAY=0" sa "$DRAIN_ORDERS" "$BATCH_SIZE" "$ROOT/sql/schema.sql" \
  "$ROOT/sql/insert-order.sql" "$DRAIN_VOUCHER" >"$JDBC_OUT"

# A restarted service is measured after as much load as leg 1's best intake level had seen (its warm-up and every
# level): on 2 cores the JIT keeps gaining for minutes, and a 40 s warm-up alone measured the rate-limited intake at
# half of what it reaches (2026-11-22: 1.5k/s after 40 s, 3.1k/s after 140 s).
read -r -a LEVELS <<<"$CONNECTIONS"
LONG_WARMUP_SECONDS=$((WARMUP_SECONDS + INTAKE_SECONDS * ${#LEVELS[@]}))

# ================================ leg 2: H2, the default rate limits on ===========================================

# A service of its own, on a fresh Redis and H2 as leg 1 started, with the default limits: on leg 1's data (millions
# of orders by now, an append-only file rewritten ever larger) it measured the limits and leg 1's data together
# (2026-11-23: 58 % of leg 1's rate, 73–83 % in the runs before). The load generator is one address, so the service
# trusts it as a proxy and each request names its buyer's own address in X-Forwarded-For (bench/intake.lua xff).
VOUCHERS=()
start_service "$RUN/limits" "$LOGS/service-rate-limits.log" "${THROUGHPUT_WINDOW[@]}" "${TOMCAT[@]}" \
  --seckill.rate-limit.trusted-proxies=127.0.0.1
say "rate limits on: warming up, $LONG_WARMUP_SECONDS s of wrk at $BEST_CONNECTIONS connections"
new_voucher limits-warm-up $MAX_STOCK
wrk_run "$BASE" "$VOUCHER" "$BEST_CONNECTIONS" "$LONG_WARMUP_SECONDS" "$LOGS/wrk-rate-limits-warm-up.txt" 202 xff
service_alive
say "rate limits on: $INTAKE_SECONDS s of wrk at $BEST_CONNECTIONS connections"
LIMITED_OUT="$LOGS/wrk-rate-limits.txt"
new_voucher limits $MAX_STOCK
wrk_run "$BASE" "$VOUCHER" "$BEST_CONNECTIONS" "$INTAKE_SECONDS" "$LIMITED_OUT" 202 xff
service_alive
LIMITED_RATE=$(wrk_rate "$LIMITED_OUT")
RSS_LIMITED=$(peak_rss_mb "$SERVICE_PID")
say "rate limits on: $LIMITED_RATE accepted/s"
stop_service

# ================================ leg 2b: H2, the API on the netty-http engine ====================================

# A service of its own (fresh Redis and H2, as leg 1 started: by now leg 1's Redis holds millions of orders and
# rewrites a large append-only file) with seckill.api.engine=netty-http (Tomcat, with the actuator, on a port of its
# own), the limits off as in leg 1: its best level, the sold-out path and a steady load at half its own rate.
VOUCHERS=()
start_service "$RUN/netty" "$LOGS/service-netty.log" "${THROUGHPUT_WINDOW[@]}" --seckill.api.engine=netty-http \
  --seckill.rate-limit.per-buyer.rate=0 --seckill.rate-limit.per-address.rate=0
say "netty-http engine: warming up, $LONG_WARMUP_SECONDS s of wrk at $BEST_CONNECTIONS connections"
new_voucher netty-warm-up $MAX_STOCK
wrk_run "$BASE" "$VOUCHER" "$BEST_CONNECTIONS" "$LONG_WARMUP_SECONDS" "$LOGS/wrk-netty-warm-up.txt"
service_alive
NETTY_OUT="$LOGS/wrk-netty.txt"
new_voucher netty $MAX_STOCK
wrk_run "$BASE" "$VOUCHER" "$BEST_CONNECTIONS" "$INTAKE_SECONDS" "$NETTY_OUT"
service_alive
NETTY_RATE=$(wrk_rate "$NETTY_OUT")
say "netty-http engine: $NETTY_RATE accepted/s"
new_voucher netty-sold-out 1
curl -sf -o /dev/null -X POST "$BASE/api/vouchers/$VOUCHER/orders" -H 'X-User-Id: 1' || die "could not take the last unit"
NETTY_SOLD_OUT_OUT="$LOGS/wrk-netty-sold-out.txt"
wrk_run "$BASE" "$VOUCHER" "$BEST_CONNECTIONS" "$INTAKE_SECONDS" "$NETTY_SOLD_OUT_OUT" 409
service_alive
NETTY_SOLD_OUT_RATE=$(wrk_rate "$NETTY_SOLD_OUT_OUT")
E2E_RATE_SERVLET=$E2E_RATE
E2E_RATE=$((NETTY_RATE / 2))
NETTY_E2E_OUT="$LOGS/steady-load-h2-netty.txt"
wait_stream_empty
steady_run "h2, netty-http" "$NETTY_E2E_OUT"
E2E_RATE_NETTY=$E2E_RATE
E2E_RATE=$E2E_RATE_SERVLET
RSS_NETTY=$(peak_rss_mb "$SERVICE_PID")
stop_service

# ================================ leg 3: PostgreSQL ===============================================================

PG_RAN=0
if ((POSTGRES)) && command -v psql >/dev/null && psql_server "SELECT 1" >/dev/null 2>&1; then
  PG_RAN=1
  PG_DB="bench_$(date -u +%Y%m%d%H%M%S)"
  PG_DATABASES+=("$PG_DB" "${PG_DB}_baseline")
  psql_server "CREATE DATABASE $PG_DB"
  psql_server "CREATE DATABASE ${PG_DB}_baseline"
  PG_VERSION=$(psql -X -tA -h 127.0.0.1 -U postgres -d postgres -c 'SHOW server_version')
  VOUCHERS=()
  start_service "$RUN/pg" "$LOGS/service-pg.log" "${THROUGHPUT_WINDOW[@]}" "${TOMCAT[@]}" --spring.profiles.active=postgres \
    --spring.datasource.url="$PG_URL$PG_DB" \
    --seckill.rate-limit.per-buyer.rate=0 --seckill.rate-limit.per-address.rate=0
  say "PostgreSQL: warming up, $LONG_WARMUP_SECONDS s of wrk at 64 connections"
  new_voucher pg-warm-up $MAX_STOCK
  wrk_run "$BASE" "$VOUCHER" 64 "$LONG_WARMUP_SECONDS" "$LOGS/wrk-pg-warm-up.txt"
  service_alive
  wait_stream_empty
  PG_E2E_OUT="$LOGS/steady-load-pg.txt"
  steady_run pg "$PG_E2E_OUT"
  wait_stream_empty
  PG_DRAIN_OUT="$LOGS/drain-pg.txt"
  drain_run pg "$PG_DRAIN_OUT" 1
  RSS_PG=$(peak_rss_mb "$SERVICE_PID")
  PG_DEAD_LETTERS=$(rcli XLEN "$STREAM:dead")
  read -r -a PG_SOLD <<<"$(sold_per_voucher)"
  stop_service
  PG_VERIFY_OUT="$LOGS/verify-pg.txt"
  bench verify "$PG_URL$PG_DB" postgres - - "${PG_SOLD[@]}" >"$PG_VERIFY_OUT"
  say "raw JDBC baseline: $DRAIN_ORDERS rows in batches of $BATCH_SIZE into a fresh PostgreSQL database"
  PG_JDBC_OUT="$LOGS/jdbc-baseline-pg.txt"
  bench jdbc "$PG_URL${PG_DB}_baseline?reWriteBatchedInserts=true" postgres "$DRAIN_ORDERS" "$BATCH_SIZE" \
    "$ROOT/sql/schema.sql" "$ROOT/sql/insert-order.sql" "$DRAIN_VOUCHER" >"$PG_JDBC_OUT"
else
  say "PostgreSQL: skipped (BENCH_POSTGRES=0, or no psql / no server on 127.0.0.1:5432)"
fi

# ================================ leg 4: winners who do not pay ===================================================

# A short payment window (BENCH_PAYMENT_WINDOW_SECONDS): a flash crowd, half its winners pay, the other half's orders
# are cancelled and their units go back on sale; a second crowd buys them; its winners do not pay, so their units
# come back too. At the end only the paid orders are live, and the ledger balances.
VOUCHERS=()
start_service "$RUN/lifecycle" "$LOGS/service-lifecycle.log" "${TOMCAT[@]}" --seckill.order.payment-timeout="${PAYMENT_WINDOW}s" \
  --seckill.rate-limit.per-buyer.rate=0 --seckill.rate-limit.per-address.rate=0
new_voucher lifecycle "$FLASH_STOCK"
LIFE_VOUCHER=$VOUCHER
say "unpaid winners: a flash crowd, one winner in 2 pays within the ${PAYMENT_WINDOW}s window"
bench flash "$BASE" "$LIFE_VOUCHER" "$((FLASH_REQUESTS / 5))" "$((FLASH_BUYERS / 5))" "$FLASH_CONCURRENCY" 7 \
  "$WORK/lifecycle-first.csv" >"$LOGS/lifecycle-first-crowd.txt"
bench pay "$BASE" "$WORK/lifecycle-first.csv" 2 >"$LOGS/lifecycle-pay.txt"
LIFE_FIRST=$(val flash_accepted "$LOGS/lifecycle-first-crowd.txt")
LIFE_PAID=$(val pay_paid "$LOGS/lifecycle-pay.txt")
LIFE_UNPAID=$((LIFE_FIRST - LIFE_PAID))
await_remaining() { # voucher expected
  local deadline=$((SECONDS + PAYMENT_WINDOW + 180))
  until [[ "$(remaining "$1")" == "$2" ]]; do
    ((SECONDS < deadline)) || { say "remaining of voucher $1 is $(remaining "$1"), not $2"; return 0; }
    sleep 1
  done
}
await_remaining "$LIFE_VOUCHER" "$LIFE_UNPAID"
LIFE_FREED=$(remaining "$LIFE_VOUCHER")
say "unpaid winners: $LIFE_PAID paid, $LIFE_FREED units back on sale; a second crowd"
bench flash "$BASE" "$LIFE_VOUCHER" "$((FLASH_REQUESTS / 5))" "$((FLASH_BUYERS / 5))" "$FLASH_CONCURRENCY" 8 \
  "$WORK/lifecycle-second.csv" >"$LOGS/lifecycle-second-crowd.txt"
LIFE_SECOND=$(val flash_accepted "$LOGS/lifecycle-second-crowd.txt")
await_remaining "$LIFE_VOUCHER" "$((FLASH_STOCK - LIFE_PAID))"
wait_stream_empty
LIFE_REMAINING=$(remaining "$LIFE_VOUCHER")
LIFE_DEAD=$(rcli XLEN "$STREAM:dead")
stop_service
bench statuses "jdbc:h2:file:$RUN/lifecycle/data/db/seckill" sa "$LIFE_VOUCHER" >"$LOGS/lifecycle-statuses.txt"
LIFE_OUT="$LOGS/lifecycle-statuses.txt"

# ================================ summary =========================================================================

# The summary, its arithmetic and the correctness checks are the harness's (bench summary, io.seckill.bench.Summary):
# it reads every step's results in logs/ and, in logs/run.txt, what only this script knows: the run's settings, the
# machine, and what it read off the processes and Redis as it went.
note() { printf '%s=%s\n' "$1" "$2" >>"$LOGS/run.txt"; }
note date "$(date -u '+%Y-%m-%d %H:%M')"
note quick "$quick"
note machine "$(nproc) CPUs ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)), $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) of memory, Linux $(uname -r)"
note cpus "$(nproc)"
note java_version "$(java -version 2>&1 | head -n 1)"
note redis_version "$REDIS_VERSION"
note pg_version "${PG_VERSION:-}"
note wrk_version "$(wrk --version 2>&1 | head -n 1 | cut -d' ' -f1-2)"
note redis_benchmark_version "$(redis-benchmark --version 2>/dev/null | cut -d' ' -f1-2)"
note load_at_start "$LOAD_AT_START"
note git "$(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" status --porcelain --untracked-files=no | grep -q . && echo " + local changes" || true)"
note java_opts "$JAVA_OPTS"
note malloc_arena_max "$MALLOC_ARENA_MAX"
note batch_size "$BATCH_SIZE"
note fsync_default "$FSYNC_DEFAULT"
note fsync_other "$FSYNC_OTHER"
note admit_script "$(basename "$ADMIT_SCRIPT")"
note warmup_seconds "$WARMUP_SECONDS"
note intake_seconds "$INTAKE_SECONDS"
note connections "$CONNECTIONS"
note best_connections "$BEST_CONNECTIONS"
note limit_requests "$LIMIT_REQUESTS"
note limit_clients "$LIMIT_CLIENTS"
note limit_pipeline "$LIMIT_PIPELINE"
note e2e_rate "$E2E_RATE"
note e2e_rate_netty "$E2E_RATE_NETTY"
note e2e_seconds "$E2E_SECONDS"
note e2e_warmup_seconds "$E2E_WARMUP_SECONDS"
note e2e_warmup_max_seconds "$E2E_WARMUP_MAX_SECONDS"
note e2e_connections "$E2E_CONNECTIONS"
note e2e_sample_every "$E2E_SAMPLE_EVERY"
note e2e_poll_millis "$E2E_POLL_MILLIS"
note drain_orders "$DRAIN_ORDERS"
note flash_stock "$FLASH_STOCK"
note flash_requests "$FLASH_REQUESTS"
note flash_buyers "$FLASH_BUYERS"
note flash_remaining "$FLASH_REMAINING"
note flash_buyers_in_redis "$FLASH_BUYERS_IN_REDIS"
note dead_letters "$DEAD_LETTERS"
note vouchers_checked "${#SOLD[@]}"
note rss_intake "$RSS_INTAKE"
note rss_drain "$RSS_DRAIN"
note rss_drain_from "$RSS_DRAIN_FROM"
note rss_limited "$RSS_LIMITED"
note rss_netty "$RSS_NETTY"
note rss_reference "$RSS_REFERENCE"
note rss_redis "$RSS_REDIS"
note life_freed "$LIFE_FREED"
note life_remaining "$LIFE_REMAINING"
note life_dead "$LIFE_DEAD"
note pg_ran "$PG_RAN"
if ((PG_RAN)); then
  note rss_pg "$RSS_PG"
  note pg_dead_letters "$PG_DEAD_LETTERS"
  note pg_vouchers_checked "${#PG_SOLD[@]}"
fi

SUMMARY="$RUN/summary.md"
bench summary "$RUN" >"$LOGS/summary.txt"
FAILED=$(val summary_failed_checks "$LOGS/summary.txt")
[[ "$FAILED" =~ ^[0-9]+$ ]] || die "the summary did not count its checks: $LOGS/summary.txt"
echo
cat "$SUMMARY"
echo
if ((FAILED)); then
  say "FAILED: $FAILED correctness checks; the run's data stays in $RUN"
  KEEP_DATA=1
  exit 1
fi
rm -rf "$WORK/jar" "$WORK/harness" "$WORK/reference"
((KEEP_DATA)) || rm -rf "$RUN/h2/data" "$RUN/limits/data" "$RUN/netty/data" "$RUN/pg/data" "$RUN/lifecycle/data" "$WORK/baseline"
say "done: $SUMMARY"
