#!/usr/bin/env bash
# The first seconds of a sale (issue 33), measured as a team evaluating the service would: the packaged jar started
# fresh with the recommended JVM options and the defaults (the per-address limit off: one load generator is one
# address), wrk at 50 connections with a new buyer per request, against the references of the same run: a plain
# Spring MVC controller running the same admission script (bench/reference), and the script alone in the same Redis.
#
#   bench/first-seconds.sh [--no-build] [--jar PATH] [-- extra service arguments...]
#
# Legs (about 9 minutes on 2 cores):
#   cold      accepted orders/s and POST p99 in each of the first twelve 10 s windows after readiness, for a fresh
#             service and a fresh reference controller
#   flood     the sold-out flood: refusals/s of the service against the reference answering a constant 409 on the
#             same engine, and against the service's own accepted rate (its last cold window)
#   start     a sale starting on a fresh service: the flood from readiness, beginAt 10 s later, 20,000 units; the time
#             from beginAt to sold out against 20,000 / the script's own rate (redis-benchmark, 50 clients)
# Results go to bench/results/<timestamp>-first-seconds/ (summary.md, logs/).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bench/common.sh
source "$ROOT/bench/common.sh"

build=1
JAR=
SERVICE_ARGS=()
while (($#)); do
  case "$1" in
    --no-build) build=0 ;;
    --jar) JAR=$2; build=0; shift ;;
    --) shift; SERVICE_ARGS=("$@"); break ;;
    -h | --help) sed -n '2,17p' "$0"; exit 0 ;;
    *) die "unknown option: $1" ;;
  esac
  shift
done

CONNECTIONS=50
WINDOWS=12
WINDOW_SECONDS=10
FLOOD_SECONDS=20
SALE_STOCK=20000
SALE_DELAY_SECONDS=10
SCRIPT_REQUESTS=200000
JAVA_OPTS="@$ROOT/jvm.options"
export MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}
for tool in wrk redis-cli redis-benchmark curl unzip javac; do
  command -v "$tool" >/dev/null || die "$tool is missing (apt-get install wrk redis-tools curl unzip; a JDK 17)"
done

RUN="$ROOT/bench/results/$(date -u +%Y%m%dT%H%M%SZ)-first-seconds"
LOGS="$RUN/logs"
WORK="$RUN/work"
mkdir -p "$LOGS" "$WORK"
SERVICE_PID=
REFERENCE_PID=
cleanup() {
  local status=$?
  [[ -z "$REFERENCE_PID" ]] || stop_pid "$REFERENCE_PID" 30
  [[ -z "$SERVICE_PID" ]] || stop_pid "$SERVICE_PID" 60
  ((status == 0)) || echo "bench: stopped (exit $status); logs in $LOGS" >&2
}
trap cleanup EXIT

if ((build)); then
  say "building the service (mvn package)"
  (cd "$ROOT" && mvn -q -B -DskipTests package) >"$LOGS/build.log" 2>&1 || die "the build failed: $LOGS/build.log"
fi
JAR=${JAR:-$(ls "$ROOT"/target/seckill-camel-*.jar | sed -n 1p)}
unzip -q -o "$JAR" 'BOOT-INF/lib/*' -d "$WORK/jar"
LIB="$WORK/jar/BOOT-INF/lib"
compile_reference

# A fresh service in DIR, as an operator starts it; returns once readiness says UP. Sets SERVICE_PID, BASE, REDIS_PORT
# and exports REDISCLI_AUTH (the embedded Redis's password, from its data directory) for redis-cli and the reference.
start_service() { # dir log
  mkdir -p "$1"
  # shellcheck disable=SC2086
  (cd "$1" && exec java $JAVA_OPTS -jar "$JAR" --server.port=0 --seckill.api.management-port=0 \
    --seckill.rate-limit.per-address.rate=0 "${SERVICE_ARGS[@]}") >"$2" 2>&1 &
  SERVICE_PID=$!
  local deadline=$((SECONDS + 180)) api management
  until grep -Eq 'Started [A-Za-z]+ in [0-9.]+ seconds' "$2"; do
    kill -0 "$SERVICE_PID" 2>/dev/null || die "the service exited during start-up: $2"
    ((SECONDS < deadline)) || die "the service did not start in 180 s: $2"
    sleep 0.1
  done
  # Tomcat's port carries the probes; Netty's (seckill.api.engine=netty-http) the API.
  management=$(grep -oP 'Tomcat started on port \K[0-9]+' "$2" | sed -n 1p)
  api=$( (grep -oP 'API listening on port \K[0-9]+' "$2"; echo "$management") | sed -n 1p)
  REDIS_PORT=$(grep -oP 'Embedded Redis listening on 127\.0\.0\.1:\K[0-9]+' "$2" | sed -n 1p)
  # (An older build, --jar, may keep no password: then none.)
  REDISCLI_AUTH=$(cat "$1/data/redis/password" 2>/dev/null || true)
  if [[ -n "$REDISCLI_AUTH" ]]; then export REDISCLI_AUTH; else unset REDISCLI_AUTH; fi
  BASE="http://127.0.0.1:$api"
  until curl -sf -o /dev/null "http://127.0.0.1:$management/actuator/health/readiness"; do
    ((SECONDS < deadline)) || die "the service was not ready in 180 s: $2"
    sleep 0.05
  done
  say "service pid $SERVICE_PID ready on $BASE (Redis $REDIS_PORT)"
}

start_reference() { # log
  # shellcheck disable=SC2086
  SPRING_DATA_REDIS_PASSWORD=${REDISCLI_AUTH:-} java $JAVA_OPTS -cp "$REFERENCE_CP" reference.ReferenceIntake \
    --server.port=0 --spring.main.banner-mode=off --spring.data.redis.port="$REDIS_PORT" --reference.script="$ROOT/lua/admitOrder-6.lua" >"$1" 2>&1 &
  REFERENCE_PID=$!
  local deadline=$((SECONDS + 120))
  until grep -Eq 'Started [A-Za-z]+ in [0-9.]+ seconds' "$1"; do
    kill -0 "$REFERENCE_PID" 2>/dev/null || die "the reference exited during start-up: $1"
    ((SECONDS < deadline)) || die "the reference did not start in 120 s: $1"
    sleep 0.1
  done
  REFERENCE_BASE="http://127.0.0.1:$(grep -oP 'Tomcat started on port \K[0-9]+' "$1" | sed -n 1p)"
  say "reference pid $REFERENCE_PID on $REFERENCE_BASE"
}

# Creates a voucher through the service (from the loopback: no operator login needed); sets VOUCHER.
new_voucher() { # stock [beginAt]
  local begin=${2:+,\"beginAt\":\"$2\"}
  VOUCHER=$(curl -sf -X POST "$BASE/api/vouchers" -H 'Content-Type: application/json' \
    -d "{\"title\":\"first seconds\",\"stock\":$1$begin}" | sed -nE 's/.*"id":([0-9]+).*/\1/p')
  [[ -n "$VOUCHER" ]] || die "could not create a voucher"
}

wrk_run() { # url voucher seconds results [expected-status] [endpoint]
  wrk -t 2 -c "$CONNECTIONS" -d "${3}s" --timeout 10s --latency -s "$ROOT/bench/intake.lua" "$1" -- "$2" \
    "${5:-202}" "" "${6:-orders}" >"$4"
}
wrk_rate() { calc "($(val bench_requests "$1") - $(val bench_unexpected "$1")) / ($(val bench_duration_us "$1") / 1e6)"; }
p99_ms() { calc "$(val bench_p99_us "$1") / 1000" 1; }

# Twelve back-to-back 10 s windows, each on a voucher of its own (wrk's buyers start again at each run); sets ROW
# (a table row of rates and p99s) and LAST_RATE.
cold_windows() { # label url
  local w out rates="" p99s=""
  for ((w = 1; w <= WINDOWS; w++)); do
    out="$LOGS/cold-$1-$w.txt"
    new_voucher 10000000
    wrk_run "$2" "$VOUCHER" "$WINDOW_SECONDS" "$out"
    rates+=" $(group "$(wrk_rate "$out")") |"
    p99s+=" $(p99_ms "$out") |"
    LAST_RATE=$(wrk_rate "$out")
  done
  ROW="| $1, accepted/s |$rates"$'\n'"| $1, POST p99 ms |$p99s"
  say "$1: last window $LAST_RATE accepted/s"
}

# --- cold: a fresh service, then a fresh reference, from readiness ------------------------------------------------

start_service "$RUN/service-cold" "$LOGS/service-cold.log"
cold_windows service "$BASE"
SERVICE_ROW=$ROW
SERVICE_RATE=$LAST_RATE

# --- flood: the service refusing a sold-out voucher ----------------------------------------------------------------

new_voucher 1
curl -sf -o /dev/null -X POST "$BASE/api/vouchers/$VOUCHER/orders" -H 'X-User-Id: 1' || die "could not take the last unit"
wrk_run "$BASE" "$VOUCHER" "$FLOOD_SECONDS" "$LOGS/flood-service.txt" 409
FLOOD_RATE=$(wrk_rate "$LOGS/flood-service.txt")
say "flood: the service refuses $FLOOD_RATE/s"

start_reference "$LOGS/reference.log"
cold_windows reference "$REFERENCE_BASE"
REFERENCE_ROW=$ROW
REFERENCE_RATE=$LAST_RATE
wrk_run "$REFERENCE_BASE" 1 "$FLOOD_SECONDS" "$LOGS/flood-constant.txt" 409 refused
CONSTANT_RATE=$(wrk_rate "$LOGS/flood-constant.txt")
say "flood: the engine's constant 409 at $CONSTANT_RATE/s"
stop_pid "$REFERENCE_PID" 30
REFERENCE_PID=
stop_pid "$SERVICE_PID" 60
SERVICE_PID=

# --- start: a sale opening 10 s after a fresh service is ready -----------------------------------------------------

start_service "$RUN/service-start" "$LOGS/service-start.log"
redis_ms() { redis-cli -p "$REDIS_PORT" EVAL "local t = redis.call('TIME') return t[1] * 1000 + math.floor(t[2] / 1000)" 0; }
BEGIN_MS=$(($(redis_ms) + SALE_DELAY_SECONDS * 1000))
new_voucher "$SALE_STOCK" "$(date -u -d "@$((BEGIN_MS / 1000)).$(printf '%03d' $((BEGIN_MS % 1000)))" +%Y-%m-%dT%H:%M:%S.%3NZ)"
KEY="seckill:{s0}:voucher:$VOUCHER"
# Redis's clock and the stock, every 5 ms, from one redis-cli.
redis-cli -p "$REDIS_PORT" -r $(((SALE_DELAY_SECONDS + 30) * 200)) -i 0.005 EVAL \
  "local t = redis.call('TIME') return (t[1] * 1000 + math.floor(t[2] / 1000)) .. ' ' .. redis.call('HGET', KEYS[1], 'stock')" \
  1 "$KEY" >"$LOGS/start-stock.txt" &
POLL_PID=$!
wrk_run "$BASE" "$VOUCHER" $((SALE_DELAY_SECONDS + 15)) "$LOGS/start-flood.txt" 409
kill "$POLL_PID" 2>/dev/null || true
wait "$POLL_PID" 2>/dev/null || true
SOLD_OUT_MS=$(awk '$2 == 0 { print $1; exit }' "$LOGS/start-stock.txt")
[[ -n "$SOLD_OUT_MS" ]] || die "not sold out within the flood: $LOGS/start-stock.txt"
SALE_SECONDS=$(calc "($SOLD_OUT_MS - $BEGIN_MS) / 1000" 2)
say "start: sold out $SALE_SECONDS s after beginAt"

# The script alone, 50 clients, on keys of its own in the same Redis.
SHA=$(redis-cli -p "$REDIS_PORT" SCRIPT LOAD "$(cat "$ROOT/lua/admitOrder-6.lua")")
LIMIT_KEYS=(bench:limit:voucher bench:limit:buyers bench:limit:orders bench:limit:due bench:limit:rb bench:limit:ra)
redis-cli -p "$REDIS_PORT" HSET bench:limit:voucher stock 1000000000 beginAt 0 >/dev/null
redis-benchmark -p "$REDIS_PORT" ${REDISCLI_AUTH:+-a "$REDISCLI_AUTH"} -c 50 -n "$SCRIPT_REQUESTS" -r 2000000000 --csv \
  EVALSHA "$SHA" 6 "${LIMIT_KEYS[@]}" __rand_int__ 1 __rand_int__ 900000 0 0 0 0 0 >"$LOGS/script.csv"
redis-cli -p "$REDIS_PORT" UNLINK "${LIMIT_KEYS[@]}" >/dev/null
SCRIPT_RATE=$(calc "$(tail -n 1 "$LOGS/script.csv" | awk -F'","' '{ gsub(/"/, "", $2); print $2 }')")
SCRIPT_SECONDS=$(calc "$SALE_STOCK / $SCRIPT_RATE" 2)
say "start: the script alone takes $SALE_SECONDS s for $SALE_STOCK units ($SCRIPT_RATE/s)"
stop_pid "$SERVICE_PID" 60
SERVICE_PID=

# --- summary --------------------------------------------------------------------------------------------------------

header="| 10 s window after readiness |"
rule="| --- |"
for ((w = 1; w <= WINDOWS; w++)); do header+=" $w |"; rule+=" ---: |"; done
{
  echo "# First seconds of a sale: $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet || echo '+changes')"
  echo
  echo "$(nproc) CPUs ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | sed -n 1p)), $(java -version 2>&1 | sed -n 1p)," \
    "load before the run $(cut -d' ' -f1-3 /proc/loadavg); wrk -c $CONNECTIONS, a new buyer per request;" \
    "service arguments: ${SERVICE_ARGS[*]:-(defaults)}"
  echo
  echo "## Cold start"
  echo
  echo "$header"
  echo "$rule"
  echo "$SERVICE_ROW"
  echo "$REFERENCE_ROW"
  echo
  echo "Last window: the service at $(percent "$SERVICE_RATE" "$REFERENCE_RATE") % of the reference;" \
    "first window at $(percent "$(wrk_rate "$LOGS/cold-service-1.txt")" "$SERVICE_RATE") % of the service's last."
  echo
  echo "## Sold-out flood ($FLOOD_SECONDS s)"
  echo
  echo "| | answers/s | p99 |"
  echo "| --- | ---: | ---: |"
  echo "| the service, SOLD_OUT | $(group "$FLOOD_RATE") | $(p99_ms "$LOGS/flood-service.txt") ms |"
  echo "| the engine's constant 409 (reference) | $(group "$CONSTANT_RATE") | $(p99_ms "$LOGS/flood-constant.txt") ms |"
  echo
  echo "Refusals at $(percent "$FLOOD_RATE" "$CONSTANT_RATE") % of the constant answer and" \
    "$(calc "$FLOOD_RATE / $SERVICE_RATE" 2)× the service's accepted rate."
  echo
  echo "## A sale starting 10 s after readiness ($SALE_STOCK units)"
  echo
  echo "Sold out $SALE_SECONDS s after beginAt; the script alone: $SCRIPT_SECONDS s ($(group "$SCRIPT_RATE")/s," \
    "50 clients), so $(calc "$SALE_SECONDS / $SCRIPT_SECONDS" 1)× the script's time."
} >"$RUN/summary.md"
cat "$RUN/summary.md"
