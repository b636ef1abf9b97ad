#!/usr/bin/env bash
# The seckill-camel benchmark: the packaged service next to the limits of the parts it is built on (its admission
# script alone in its Redis, raw JDBC batches into H2), measured in one run on one machine. See bench/README.md.
#
#   bench/run.sh            the full run (about 8 minutes on 2 cores)
#   bench/run.sh --quick    short settings, to check the harness itself; its figures mean little
#   bench/run.sh --no-build use target/seckill-camel-*.jar as it is
#
# Durations and sizes are BENCH_* environment variables (listed by --help). Results go to
# bench/results/<timestamp>/ (summary.md, logs/). Exits non-zero when an order went missing or was doubled.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: bench/run.sh [--quick] [--no-build]

Environment (default; --quick default):
  BENCH_WARMUP_SECONDS      40; 10      wrk load before any measurement (JIT warm-up)
  BENCH_INTAKE_SECONDS      30; 5       wrk run per connection count
  BENCH_CONNECTIONS         "16 64 256"; "16 64"
  BENCH_WRK_THREADS         2
  BENCH_LIMIT_REQUESTS      1000000; 100000   redis-benchmark runs of the admission script, per mode
  BENCH_LIMIT_CLIENTS       50
  BENCH_LIMIT_PIPELINE      16
  BENCH_E2E_RATE            half the best intake rate (orders/s)
  BENCH_E2E_SECONDS         60; 10
  BENCH_E2E_CONNECTIONS     64
  BENCH_E2E_SAMPLE_EVERY    100         one order in N is followed to its row
  BENCH_E2E_POLL_MILLIS     5           GET /api/orders/{id} interval while following
  BENCH_DRAIN_ORDERS        500000; 50000
  BENCH_FLASH_STOCK         1000
  BENCH_FLASH_REQUESTS      50000; 10000
  BENCH_FLASH_BUYERS        20000; 4000
  BENCH_FLASH_CONCURRENCY   64
  BENCH_BATCH_SIZE          the service's seckill.stream.batch-size (500)
  BENCH_JAVA_OPTS           JVM options for the service (-Xmx256m: a heap sized as in production, not a quarter of RAM)
  BENCH_KEEP_DATA           0           1 keeps the run's Redis and H2 files (they are deleted after a clean run)
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
WARMUP_SECONDS=${BENCH_WARMUP_SECONDS:-$(pick 40 10)}
INTAKE_SECONDS=${BENCH_INTAKE_SECONDS:-$(pick 30 5)}
CONNECTIONS=${BENCH_CONNECTIONS:-$(pick "16 64 256" "16 64")}
WRK_THREADS=${BENCH_WRK_THREADS:-2}
LIMIT_REQUESTS=${BENCH_LIMIT_REQUESTS:-$(pick 1000000 100000)}
LIMIT_CLIENTS=${BENCH_LIMIT_CLIENTS:-50}
LIMIT_PIPELINE=${BENCH_LIMIT_PIPELINE:-16}
E2E_RATE=${BENCH_E2E_RATE:-}
E2E_SECONDS=${BENCH_E2E_SECONDS:-$(pick 60 10)}
E2E_CONNECTIONS=${BENCH_E2E_CONNECTIONS:-64}
E2E_SAMPLE_EVERY=${BENCH_E2E_SAMPLE_EVERY:-100}
E2E_POLL_MILLIS=${BENCH_E2E_POLL_MILLIS:-5}
DRAIN_ORDERS=${BENCH_DRAIN_ORDERS:-$(pick 500000 50000)}
FLASH_STOCK=${BENCH_FLASH_STOCK:-1000}
FLASH_REQUESTS=${BENCH_FLASH_REQUESTS:-$(pick 50000 10000)}
FLASH_BUYERS=${BENCH_FLASH_BUYERS:-$(pick 20000 4000)}
FLASH_CONCURRENCY=${BENCH_FLASH_CONCURRENCY:-64}
JAVA_OPTS=${BENCH_JAVA_OPTS--Xmx256m}
KEEP_DATA=${BENCH_KEEP_DATA:-0}

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BATCH_SIZE=${BENCH_BATCH_SIZE:-$(awk '/^  stream:/ { s = 1; next } /^  [a-z]/ { s = 0 } s && /batch-size:/ { print $2; exit }' \
  "$ROOT/src/main/resources/application.yaml")}
# One shard, so every order of the run is on seckill:{s0}:orders (the contract's key layout).
STREAM='seckill:{s0}:orders'
WRITER_ROUTE=order-writer
MAX_STOCK=10000000

die() { echo "bench: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null || die "$1 is missing: $2"; }
need wrk "apt-get install wrk"
need redis-benchmark "apt-get install redis-tools"
need redis-cli "apt-get install redis-tools"
need curl "apt-get install curl"
need unzip "apt-get install unzip"
need java "install a JDK 17"
need javac "install a JDK 17"
((build == 0)) || need mvn "apt-get install maven"
[[ "$DRAIN_ORDERS" -le "$MAX_STOCK" ]] || die "BENCH_DRAIN_ORDERS is at most $MAX_STOCK (the largest voucher stock)"

RUN="$ROOT/bench/results/$(date -u +%Y%m%dT%H%M%SZ)"
LOGS="$RUN/logs"
WORK="$RUN/work"
mkdir -p "$LOGS" "$WORK"
SERVICE_LOG="$LOGS/service.log"
SERVICE_PID=
CHILD_PID=

say() { printf '%s  %s\n' "$(date -u +%H:%M:%S)" "$*"; }
# The value of KEY=... in a results file.
val() { sed -n "s/^$1=//p" "$2" | tail -n 1; }
calc() { awk "BEGIN { printf \"%.${2:-0}f\", $1 }"; }
group() { sed -E ':a; s/^([0-9]+)([0-9]{3})/\1,\2/; ta' <<<"$1"; }
yes_no() { if awk "BEGIN { exit !($1) }"; then echo yes; else echo no; fi; }
# yes when a figure (which may be n/a) is below a limit.
below() { if [[ "$1" =~ ^[0-9.]+$ ]] && awk "BEGIN { exit !($1 < $2) }"; then echo yes; else echo no; fi; }

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
  if [[ -n "$SERVICE_PID" ]] && kill -0 "$SERVICE_PID" 2>/dev/null; then
    kill -TERM "$SERVICE_PID"
    local waited=0
    while kill -0 "$SERVICE_PID" 2>/dev/null && ((waited < 90)); do
      sleep 1
      waited=$((waited + 1))
    done
    if kill -0 "$SERVICE_PID" 2>/dev/null; then
      say "the service did not stop in 90 s; killing it"
      kill -KILL "$SERVICE_PID" 2>/dev/null || true
    fi
    wait "$SERVICE_PID" 2>/dev/null || true
  fi
  SERVICE_PID=
  # A JVM that did not exit normally leaves its embedded redis-server running; its pid file says which.
  local pid_file="$RUN/data/redis/redis.pid" redis_pid
  if [[ -f "$pid_file" ]]; then
    redis_pid=$(cat "$pid_file")
    if kill -0 "$redis_pid" 2>/dev/null && grep -q redis-server "/proc/$redis_pid/cmdline" 2>/dev/null; then
      kill -TERM "$redis_pid"
      local waited=0
      while kill -0 "$redis_pid" 2>/dev/null && ((waited < 30)); do
        sleep 1
        waited=$((waited + 1))
      done
      kill -KILL "$redis_pid" 2>/dev/null || true
    fi
  fi
}

cleanup() {
  local status=$?
  trap - EXIT
  ((status == 0)) || echo "bench: stopped (exit $status); logs in $LOGS" >&2
  if [[ -n "$CHILD_PID" ]]; then
    kill -TERM "$CHILD_PID" 2>/dev/null || true
    wait "$CHILD_PID" 2>/dev/null || true
  fi
  stop_service
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the service and the Java side of the harness ---------------------------------------------------------------

if ((build)); then
  say "building the service (mvn package)"
  (cd "$ROOT" && mvn -q -B -DskipTests package) >"$LOGS/build.log" 2>&1 || die "the build failed: $LOGS/build.log"
fi
JAR=$(ls "$ROOT"/target/seckill-camel-*.jar 2>/dev/null | head -n 1)
[[ -n "$JAR" ]] || die "no target/seckill-camel-*.jar: run without --no-build"
unzip -q -o "$JAR" 'BOOT-INF/lib/*' -d "$WORK/jar"
LIB="$WORK/jar/BOOT-INF/lib"
javac -d "$WORK/classes" -cp "$LIB/*" "$ROOT/bench/Bench.java"
bench() { track java -Xms256m -Xmx1g -cp "$WORK/classes:$LIB/*" Bench "$@"; }

LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg)
say "starting the service; data in $RUN/data, log in $SERVICE_LOG"
# From the run's own folder: the embedded defaults put ./data there, and the routes come from the jar.
# shellcheck disable=SC2086
(cd "$RUN" && exec java $JAVA_OPTS -jar "$JAR" \
  --server.port=0 \
  --seckill.stream.shards=1 \
  --seckill.stream.batch-size="$BATCH_SIZE" \
  --seckill.rate-limit.per-buyer.rate=0 \
  --seckill.rate-limit.per-address.rate=0) >"$SERVICE_LOG" 2>&1 &
SERVICE_PID=$!
deadline=$((SECONDS + 180))
until grep -Eq 'Started [A-Za-z]+ in [0-9.]+ seconds' "$SERVICE_LOG"; do
  kill -0 "$SERVICE_PID" 2>/dev/null || die "the service exited during start-up: $SERVICE_LOG"
  ((SECONDS < deadline)) || die "the service did not start in 180 s: $SERVICE_LOG"
  sleep 0.5
done
HTTP_PORT=$(grep -oP 'Tomcat started on port \K[0-9]+' "$SERVICE_LOG" | head -n 1)
REDIS_PORT=$(grep -oP 'Embedded Redis listening on 127\.0\.0\.1:\K[0-9]+' "$SERVICE_LOG" | head -n 1)
[[ -n "$HTTP_PORT" && -n "$REDIS_PORT" ]] || die "no HTTP or Redis port in $SERVICE_LOG"
REDIS_PID=$(cat "$RUN/data/redis/redis.pid")
BASE="http://127.0.0.1:$HTTP_PORT"
say "service pid $SERVICE_PID on $BASE, embedded Redis pid $REDIS_PID on port $REDIS_PORT"

rcli() { redis-cli -p "$REDIS_PORT" "$@"; }
service_alive() { kill -0 "$SERVICE_PID" 2>/dev/null || die "the service is no longer running: $SERVICE_LOG"; }
REDIS_VERSION=$(rcli INFO server | sed -n 's/^redis_version://p' | tr -d '\r')
VOUCHERS=()
# Creates a voucher on sale from now on, as VOUCHER.
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

# --- 1. intake: wrk, every order from a new buyer ---------------------------------------------------------------

wrk_run() { # voucher connections seconds results
  local threads=$WRK_THREADS
  ((threads <= $2)) || threads=$2
  track wrk -t "$threads" -c "$2" -d "${3}s" --timeout 10s --latency -s "$ROOT/bench/intake.lua" "$BASE" -- "$1" >"$4"
  service_alive
}

say "warming up: $WARMUP_SECONDS s of wrk at 64 connections"
new_voucher warm-up $MAX_STOCK
wrk_run "$VOUCHER" 64 "$WARMUP_SECONDS" "$LOGS/wrk-warm-up.txt"

BEST_RATE=0
BEST_CONNECTIONS=
INTAKE_ROWS=""
for connections in $CONNECTIONS; do
  say "intake: $INTAKE_SECONDS s of wrk at $connections connections"
  out="$LOGS/wrk-$connections.txt"
  new_voucher "intake $connections" $MAX_STOCK
  wrk_run "$VOUCHER" "$connections" "$INTAKE_SECONDS" "$out"
  requests=$(val bench_requests "$out")
  not_202=$(val bench_not_202 "$out")
  rate=$(calc "($requests - $not_202) / ($(val bench_duration_us "$out") / 1e6)")
  if ((rate > BEST_RATE)); then
    BEST_RATE=$rate
    BEST_CONNECTIONS=$connections
  fi
  INTAKE_ROWS+="| $connections | $(group "$rate") | $(calc "$(val bench_p50_us "$out") / 1000" 2) ms"
  INTAKE_ROWS+=" | $(calc "$(val bench_p99_us "$out") / 1000" 2) ms | $(calc "$(val bench_p999_us "$out") / 1000" 2) ms"
  INTAKE_ROWS+=" | $not_202 | $(val bench_socket_errors "$out") |"$'\n'
done
RSS_INTAKE=$(peak_rss_mb "$SERVICE_PID")
say "intake: best $BEST_RATE accepted/s at $BEST_CONNECTIONS connections; peak RSS $RSS_INTAKE MB"

# --- 2. the intake limit: the admission script alone, in the same Redis -----------------------------------------

say "waiting for the writer to catch up"
wait_stream_empty
SHA=$(rcli SCRIPT LOAD "$(cat "$ROOT/lua/admitOrder-4.lua")")
# Keys of their own (bench:limit:*), so the writer never sees these orders; the script's work is the same.
LIMIT_KEYS=(bench:limit:voucher bench:limit:buyers bench:limit:orders bench:limit:due)
limit_run() { # pipeline results
  rcli UNLINK "${LIMIT_KEYS[@]}" >/dev/null
  rcli HSET bench:limit:voucher stock 1000000000 beginAt 0 >/dev/null
  track redis-benchmark -p "$REDIS_PORT" -c "$LIMIT_CLIENTS" -P "$1" -n "$LIMIT_REQUESTS" -r 2000000000 --csv \
    EVALSHA "$SHA" 4 "${LIMIT_KEYS[@]}" __rand_int__ 1 __rand_int__ 900000 >"$2"
  rcli UNLINK "${LIMIT_KEYS[@]}" >/dev/null
}
csv_field() { tail -n 1 "$2" | awk -F'","' -v f="$1" '{ gsub(/"/, "", $f); print $f }'; }
say "intake limit: $LIMIT_REQUESTS admission scripts, $LIMIT_CLIENTS clients, no pipelining"
limit_run 1 "$LOGS/redis-benchmark-unpipelined.csv"
say "intake limit: $LIMIT_REQUESTS admission scripts, $LIMIT_CLIENTS clients, pipeline $LIMIT_PIPELINE"
limit_run "$LIMIT_PIPELINE" "$LOGS/redis-benchmark-pipelined.csv"
LIMIT_RATE=$(calc "$(csv_field 2 "$LOGS/redis-benchmark-unpipelined.csv")")
LIMIT_RATE_PIPELINED=$(calc "$(csv_field 2 "$LOGS/redis-benchmark-pipelined.csv")")
LIMIT_ROWS="| $LIMIT_CLIENTS clients, no pipelining | $(group "$LIMIT_RATE") | $(csv_field 5 "$LOGS/redis-benchmark-unpipelined.csv") ms"
LIMIT_ROWS+=" | $(csv_field 7 "$LOGS/redis-benchmark-unpipelined.csv") ms |"$'\n'
LIMIT_ROWS+="| $LIMIT_CLIENTS clients, pipeline $LIMIT_PIPELINE | $(group "$LIMIT_RATE_PIPELINED")"
LIMIT_ROWS+=" | $(csv_field 5 "$LOGS/redis-benchmark-pipelined.csv") ms | $(csv_field 7 "$LOGS/redis-benchmark-pipelined.csv") ms |"
say "intake limit: $LIMIT_RATE/s unpipelined, $LIMIT_RATE_PIPELINED/s pipelined"

# --- 3. end to end at half load ----------------------------------------------------------------------------------

E2E_RATE=${E2E_RATE:-$((BEST_RATE / 2))}
((E2E_RATE > 0)) || die "no intake rate measured to halve"
say "steady load: $E2E_RATE orders/s for $E2E_SECONDS s, following one in $E2E_SAMPLE_EVERY to its row"
E2E_OUT="$LOGS/steady-load.txt"
new_voucher steady $MAX_STOCK
bench load "$BASE" "$VOUCHER" "$E2E_RATE" "$E2E_SECONDS" "$E2E_SAMPLE_EVERY" "$E2E_POLL_MILLIS" \
  "$E2E_CONNECTIONS" >"$E2E_OUT"
service_alive
say "steady load: POST p99 $(val post_p99 "$E2E_OUT") ms, 202 → row p99 $(val e2e_p99 "$E2E_OUT") ms"

# --- 4. flash crowd ----------------------------------------------------------------------------------------------

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

# --- 5. drain of a backlog ---------------------------------------------------------------------------------------

say "drain: stopping the writer, then $DRAIN_ORDERS orders admitted straight into Redis"
bench route "$SERVICE_PID" "$WRITER_ROUTE" stop >"$LOGS/route-stop.txt"
new_voucher drain "$DRAIN_ORDERS"
DRAIN_VOUCHER=$VOUCHER
# The backlog is what the admission script leaves: EVALSHA per order, buyers 1..N, ids Backlog.orderId(n).
awk -v n="$DRAIN_ORDERS" -v sha="$SHA" -v v="$DRAIN_VOUCHER" -v stream="$STREAM" '
  function bulk(s) { return "$" length(s) "\r\n" s "\r\n" }
  BEGIN {
    head = "*11\r\n" bulk("EVALSHA") bulk(sha) bulk("4") bulk("seckill:{s0}:voucher:" v) \
      bulk("seckill:{s0}:buyers:" v) bulk(stream) bulk(stream ":due")
    for (i = 1; i <= n; i++) printf "%s%s%s%s%s", head, bulk("8" sprintf("%018d", i)), bulk(v), bulk(i), bulk("900000")
  }' | rcli --pipe >"$LOGS/backlog.txt"
reset_peak_rss "$SERVICE_PID" && RSS_DRAIN_FROM="drain start" || RSS_DRAIN_FROM="service start"
say "drain: starting the writer on $(rcli XLEN "$STREAM") entries"
DRAIN_OUT="$LOGS/drain.txt"
bench drain "$SERVICE_PID" "$REDIS_PORT" "$STREAM" "$DRAIN_ORDERS" "$WRITER_ROUTE" >"$DRAIN_OUT"
RSS_DRAIN=$(peak_rss_mb "$SERVICE_PID")
RSS_REDIS=$(peak_rss_mb "$REDIS_PID")
say "drain: $(val drain_rate "$DRAIN_OUT") orders/s; peak RSS $RSS_DRAIN MB"

# What Redis says each voucher sold, for the database check once the service is down.
DEAD_LETTERS=$(rcli XLEN "$STREAM:dead")
SOLD=()
for id in "${VOUCHERS[@]}"; do
  SOLD+=("$id=$(($(stock "$id") - $(remaining "$id")))")
done

say "stopping the service"
stop_service

# --- 6. the database against what was accepted; the raw JDBC baseline -------------------------------------------

VERIFY_OUT="$LOGS/verify.txt"
bench verify "jdbc:h2:file:$RUN/data/db/seckill" "$FLASH_VOUCHER" "$WORK/flash-accepted.csv" "${SOLD[@]}" >"$VERIFY_OUT"

say "raw JDBC baseline: $DRAIN_ORDERS rows in batches of $BATCH_SIZE into a fresh H2 file"
JDBC_OUT="$LOGS/jdbc-baseline.txt"
bench jdbc "$WORK/baseline/seckill" "$DRAIN_ORDERS" "$BATCH_SIZE" "$ROOT/sql/schema.sql" "$ROOT/sql/insert-order.sql" \
  "$DRAIN_VOUCHER" >"$JDBC_OUT"

# --- summary -----------------------------------------------------------------------------------------------------

FAILURES=()
check() { # description condition
  if awk "BEGIN { exit !($2) }"; then
    CHECKS+="| $1 | PASS |"$'\n'
  else
    CHECKS+="| $1 | FAIL |"$'\n'
    FAILURES+=("$1")
  fi
}
CHECKS=""
FLASH_ACCEPTED=$(val flash_accepted "$FLASH_OUT")
FLASH_OTHER=$(grep '^flash_outcome_' "$FLASH_OUT" \
  | grep -Ev '^flash_outcome_(202|409_SOLD_OUT|409_ALREADY_ORDERED)=' | sed 's/^flash_outcome_//' | paste -sd' ' || true)
check "flash crowd: $FLASH_ACCEPTED orders accepted (202) for a stock of $FLASH_STOCK" "$FLASH_ACCEPTED == $FLASH_STOCK"
check "flash crowd: every other answer 409 SOLD_OUT or ALREADY_ORDERED${FLASH_OTHER:+ (also: $FLASH_OTHER)}" \
  "\"$FLASH_OTHER\" == \"\""
check "flash crowd: remaining $FLASH_REMAINING" "$FLASH_REMAINING == 0"
check "flash crowd: $FLASH_BUYERS_IN_REDIS buyers recorded in Redis" "$FLASH_BUYERS_IN_REDIS == $FLASH_STOCK"
check "flash crowd: $(val verify_flash_rows "$VERIFY_OUT") rows, $(val verify_flash_buyers "$VERIFY_OUT") distinct buyers" \
  "$(val verify_flash_rows "$VERIFY_OUT") == $FLASH_STOCK && $(val verify_flash_buyers "$VERIFY_OUT") == $FLASH_STOCK"
check "flash crowd: rows missing $(val verify_flash_missing "$VERIFY_OUT"), rows never accepted $(val verify_flash_unexpected "$VERIFY_OUT")" \
  "$(val verify_flash_missing "$VERIFY_OUT") == 0 && $(val verify_flash_unexpected "$VERIFY_OUT") == 0"
check "every voucher of the run: rows = stock − remaining (${#SOLD[@]} vouchers)" \
  "$(val verify_mismatches "$VERIFY_OUT") == 0"
check "dead letters: $DEAD_LETTERS" "$DEAD_LETTERS == 0"
check "orders followed to their row and never seen: $(val e2e_unseen "$E2E_OUT")" "$(val e2e_unseen "$E2E_OUT") == 0"

DRAIN_RATE=$(val drain_rate "$DRAIN_OUT")
JDBC_RATE=$(val jdbc_rate "$JDBC_OUT")
POST_P99=$(val post_p99 "$E2E_OUT")
E2E_P99=$(val e2e_p99 "$E2E_OUT")
RSS_MAX=$((RSS_INTAKE > RSS_DRAIN ? RSS_INTAKE : RSS_DRAIN))
INTAKE_RATIO=$(calc "100 * $BEST_RATE / $LIMIT_RATE" 1)
DRAIN_RATIO=$(calc "100 * $DRAIN_RATE / $JDBC_RATE" 1)
dirty=$(git -C "$ROOT" status --porcelain --untracked-files=no | grep -q . && echo " + local changes" || true)

SUMMARY="$RUN/summary.md"
{
  echo "# seckill-camel benchmark, $(date -u '+%Y-%m-%d %H:%M') UTC"
  echo
  if ((quick)); then
    echo "**Quick run: shortened settings to check the harness; these figures are not comparable.**"
    echo
  fi
  echo "- Machine: $(nproc) CPUs ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)), $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) of memory, Linux $(uname -r)."
  echo "- Software: $(java -version 2>&1 | head -n 1); embedded redis-server $REDIS_VERSION; $(wrk --version 2>&1 | head -n 1 | cut -d' ' -f1-2); $(redis-benchmark --version 2>/dev/null | cut -d' ' -f1-2)."
  echo "- Load average when the run started: $LOAD_AT_START. wrk, redis-benchmark and the Java load generator share the CPUs with the service."
  echo "- Service: git $(git -C "$ROOT" rev-parse --short HEAD)$dirty, JVM options: ${JAVA_OPTS:-none (JVM defaults)}, batch size $BATCH_SIZE, embedded Redis and H2 file, rate limits off."
  echo "- Settings: warm-up $WARMUP_SECONDS s; intake $INTAKE_SECONDS s per level; $(group "$LIMIT_REQUESTS") script runs per limit mode;"
  echo "  steady load $E2E_SECONDS s; backlog $(group "$DRAIN_ORDERS") orders; flash crowd $(group "$FLASH_REQUESTS") requests from $(group "$FLASH_BUYERS") buyers for $(group "$FLASH_STOCK") units."
  echo
  echo "## Headline"
  echo
  echo "| measure | service | limit, same run | service / limit | target | met |"
  echo "| --- | ---: | ---: | ---: | --- | --- |"
  echo "| intake, accepted orders/s (best: $BEST_CONNECTIONS connections) | $(group "$BEST_RATE") | $(group "$LIMIT_RATE") (admission script, $LIMIT_CLIENTS clients, no pipelining) | $INTAKE_RATIO % | ≥ 25 % | $(yes_no "$INTAKE_RATIO >= 25") |"
  echo "| POST latency p99 at half load ($(group "$E2E_RATE")/s) | $POST_P99 ms | | | < 20 ms | $(below "$POST_P99" 20) |"
  echo "| drain, orders written/s ($(group "$DRAIN_ORDERS") backlog) | $(group "$DRAIN_RATE") | $(group "$JDBC_RATE") (raw JDBC batches of $BATCH_SIZE, H2 file) | $DRAIN_RATIO % | ≥ 80 % | $(yes_no "$DRAIN_RATIO >= 80") |"
  echo "| 202 → row p99 at half load | $E2E_P99 ms | | | < 100 ms | $(below "$E2E_P99" 100) |"
  echo "| peak RSS of the service, intake / drain | $RSS_INTAKE / $RSS_DRAIN MB | | | < 512 MB | $(below "$RSS_MAX" 512) |"
  echo "| correctness: flash crowd, every order written once (checks below) | ${#FAILURES[@]} failed | | | none | $(yes_no "${#FAILURES[@]} == 0") |"
  echo
  echo "## Intake (wrk, $INTAKE_SECONDS s per level after $WARMUP_SECONDS s of warm-up; every request a new buyer)"
  echo
  echo "Accepted/s counts 202 answers only. The latencies are wrk's, over every answer (all are 202 when 'not 202' is 0)."
  echo
  echo "| connections | accepted/s | p50 | p99 | p99.9 | not 202 | socket errors |"
  echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  printf '%s' "$INTAKE_ROWS"
  echo
  echo "## The admission script alone (redis-benchmark, EVALSHA lua/admitOrder-4.lua, the service's Redis)"
  echo
  echo "| mode | scripts/s | p50 | p99 |"
  echo "| --- | ---: | ---: | ---: |"
  echo "$LIMIT_ROWS"
  echo
  echo "## Steady load at half the best intake (open loop, $E2E_CONNECTIONS connections)"
  echo
  echo "Asked $(group "$E2E_RATE")/s, sent $(group "$(val load_rate_done "$E2E_OUT")")/s; $(val load_accepted "$E2E_OUT") accepted, $(val load_not_202 "$E2E_OUT") not 202, $(val load_failures "$E2E_OUT") failed."
  echo "POST latency counts from when each request was due. 202 → row: one order in $E2E_SAMPLE_EVERY followed with GET /api/orders/{id} every $E2E_POLL_MILLIS ms (an upper bound, within one poll)."
  echo
  echo "| | samples | p50 | p99 | p99.9 |"
  echo "| --- | ---: | ---: | ---: | ---: |"
  echo "| POST → 202 | $(val post_count "$E2E_OUT") | $(val post_p50 "$E2E_OUT") ms | $POST_P99 ms | $(val post_p999 "$E2E_OUT") ms |"
  echo "| 202 → row in the database | $(val e2e_count "$E2E_OUT") | $(val e2e_p50 "$E2E_OUT") ms | $E2E_P99 ms | $(val e2e_p999 "$E2E_OUT") ms |"
  echo
  echo "## Drain of a backlog (the writer route stopped while $(group "$DRAIN_ORDERS") orders were admitted, then started)"
  echo
  echo "| writer | rows | seconds | rows/s |"
  echo "| --- | ---: | ---: | ---: |"
  echo "| the service's order-writer (second half alone: $(group "$(val drain_rate_second_half "$DRAIN_OUT")")/s) | $(group "$(val drain_orders "$DRAIN_OUT")") | $(val drain_seconds "$DRAIN_OUT") | $(group "$DRAIN_RATE") |"
  echo "| raw JDBC, same statement and batch size, fresh H2 file | $(group "$(val jdbc_rows "$JDBC_OUT")") | $(val jdbc_seconds "$JDBC_OUT") | $(group "$JDBC_RATE") |"
  echo
  echo "## Memory (VmHWM)"
  echo
  echo "- Service JVM: $RSS_INTAKE MB from start through the intake runs; $RSS_DRAIN MB from $RSS_DRAIN_FROM through the drain."
  echo "- Its embedded redis-server: $RSS_REDIS MB over the whole run (not counted in the service's figure)."
  echo
  echo "## Correctness"
  echo
  echo "Flash crowd: $(grep '^flash_outcome_' "$FLASH_OUT" | sed 's/^flash_outcome_//' | paste -sd' ') in $(val flash_seconds "$FLASH_OUT") s ($(group "$(val flash_rate "$FLASH_OUT")") requests/s)."
  echo
  echo "| check | result |"
  echo "| --- | --- |"
  printf '%s' "$CHECKS"
} >"$SUMMARY"

echo
cat "$SUMMARY"
echo
if ((${#FAILURES[@]})); then
  say "FAILED: ${#FAILURES[@]} correctness checks; the run's data stays in $RUN/data"
  exit 1
fi
rm -rf "$WORK/jar" "$WORK/classes"
((KEEP_DATA)) || rm -rf "$RUN/data" "$WORK/baseline"
say "done: $SUMMARY"
