#!/usr/bin/env bash
# One hot voucher on a three-master Redis Cluster with its stock in 1, 2 and 4 buckets (issue 36, docs/buckets.md):
# accepted orders/s, and each master's CPU per accepted order (from /proc) to show where the load goes; then the
# time to sell out one voucher of UNITS units, in 1 bucket against 4. The masters are three redis-server processes
# (the embedded-redis jar's binary, as the service's embedded default, append-only file fsynced every second); the
# service is the packaged jar with the recommended JVM options, netty-http, 4 stream shards, rate limits off.
#
#   bench/buckets.sh [--no-build] [--seconds N (20)] [--units N (100000)]
#
# About 6 minutes on 2 cores. Results in bench/results/<timestamp>-buckets/ (summary.md, logs/). On a machine whose
# cores the masters, the service and wrk share, the rate cannot show the scaling; the CPU per order can.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "bench: $*" >&2; exit 1; }

build=1
SECONDS_PER_LEG=20
UNITS=100000
while (($#)); do
  case "$1" in
    --no-build) build=0 ;;
    --seconds) SECONDS_PER_LEG=$2; shift ;;
    --units) UNITS=$2; shift ;;
    -h | --help) sed -n '2,11p' "$0"; exit 0 ;;
    *) die "unknown option: $1" ;;
  esac
  shift
done
for tool in wrk redis-cli java mvn curl unzip; do
  command -v "$tool" >/dev/null || die "$tool is missing (apt-get install wrk redis-tools curl unzip; a JDK 17 and Maven)"
done

RUN="$ROOT/bench/results/$(date -u +%Y%m%dT%H%M%SZ)-buckets"
mkdir -p "$RUN/logs"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

if ((build)); then
  (cd "$ROOT" && mvn -B -q package -DskipTests) > "$RUN/logs/build.log" 2>&1 || die "build failed: $RUN/logs/build.log"
fi
JAR=$(ls "$ROOT"/target/seckill-camel-*.jar | grep -v original | head -1)

# The redis-server of the embedded-redis jar the service itself would run.
(cd "$ROOT" && mvn -B -q dependency:build-classpath -Dmdep.outputFile="$RUN/embedded-redis.path" \
  -DincludeArtifactIds=embedded-redis) > "$RUN/logs/embedded-redis.log" 2>&1
EMBEDDED=$(cat "$RUN/embedded-redis.path")
unzip -o -q -j "$EMBEDDED" redis-server-6.2.6-v5-linux-amd64 -d "$RUN"
REDIS_SERVER="$RUN/redis-server-6.2.6-v5-linux-amd64"
chmod +x "$REDIS_SERVER"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
MASTERS=()
MASTER_PIDS=()
for i in 0 1 2; do
  # A node also listens on its port + 10000 (the cluster bus).
  port=$((17100 + i))
  mkdir -p "$RUN/redis-$i"
  (cd "$RUN/redis-$i" && exec "$REDIS_SERVER" --bind 127.0.0.1 --port "$port" --cluster-enabled yes \
    --cluster-config-file nodes.conf --appendonly yes --appendfsync everysec --save '' \
    > "$RUN/logs/redis-$i.log" 2>&1) &
  # The subshell execs redis-server: its pid is the server's.
  PIDS+=($!)
  MASTER_PIDS+=($!)
  MASTERS+=("127.0.0.1:$port")
done
until redis-cli -p 17102 ping > /dev/null 2>&1; do sleep 0.2; done
redis-cli --cluster create "${MASTERS[@]}" --cluster-replicas 0 --cluster-yes > "$RUN/logs/cluster-create.log" 2>&1
until redis-cli -p 17100 cluster info | grep -q 'cluster_state:ok'; do sleep 0.2; done

PORT=$(free_port)
MPORT=$(free_port)
mkdir -p "$RUN/service"
(cd "$RUN/service" && MALLOC_ARENA_MAX=2 exec java "@$ROOT/jvm.options" -jar "$JAR" --server.port="$PORT" \
  --seckill.api.management-port="$MPORT" --seckill.redis.embedded=false \
  --spring.data.redis.cluster.nodes="$(IFS=,; echo "${MASTERS[*]}")" --seckill.stream.shards=4 \
  --seckill.rate-limit.per-buyer.rate=0 --seckill.rate-limit.per-address.rate=0 \
  --seckill.order.payment-timeout=24h > "$RUN/logs/service.log" 2>&1) &
PIDS+=($!)
API="http://127.0.0.1:$PORT"
for _ in $(seq 1 240); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$API/actuator/health/readiness")" = 200 ] && break
  sleep 1
done
[ "$(curl -s -o /dev/null -w '%{http_code}' "$API/actuator/health/readiness")" = 200 ] || die "service not ready"

voucher() { # stock buckets -> id
  curl -s -H 'Content-Type: application/json' -d "{\"title\":\"bench\",\"stock\":$1,\"buckets\":$2}" \
    "$API/api/vouchers" | sed -n 's/.*"id":\([0-9]*\).*/\1/p'
}
master_of() { # shard -> index of the master serving {sN}
  local slot port
  slot=$(redis-cli -p 17100 cluster keyslot "{s$1}")
  port=$(redis-cli -p 17100 cluster nodes | awk -v slot="$slot" '$3 ~ /master/ {
    for (i = 9; i <= NF; i++) { split($i, r, "-"); if (slot >= r[1] && slot <= (r[2] == "" ? r[1] : r[2])) { split($2, a, "[:@]"); print a[2] } } }')
  echo $((port - 17100))
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
TICK_MS=$((1000 / $(getconf CLK_TCK)))

# Warm the service (JIT) on a voucher of its own.
wrk -t2 -c64 -d60s -s "$ROOT/bench/intake.lua" "$API" -- "$(voucher 10000000 4)" > "$RUN/logs/warm.txt"

{
  echo "# One hot voucher on a three-master cluster: 1, 2 and 4 stock buckets"
  echo
  echo "$(date -u +%FT%TZ), git $(cd "$ROOT" && git rev-parse --short HEAD), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)); wrk -t2 -c64 ${SECONDS_PER_LEG}s per leg, every request a new buyer"
  echo
  echo "| buckets | shards → masters | accepted/s | p99 | CPU ms per 1,000 accepted: master 0 / 1 / 2 | busiest master's share |"
  echo "| ---: | --- | ---: | ---: | --- | ---: |"
} > "$RUN/summary.md"
for buckets in 1 2 4; do
  id=$(voucher 10000000 "$buckets")
  placement=$(for ((b = 0; b < buckets; b++)); do s=$(((id + b) % 4)); echo -n "s$s→m$(master_of $s) "; done)
  before=(); for pid in "${MASTER_PIDS[@]}"; do before+=("$(cpu_ticks "$pid")"); done
  wrk -t2 -c64 -d"${SECONDS_PER_LEG}s" --latency -s "$ROOT/bench/intake.lua" "$API" -- "$id" > "$RUN/logs/leg-$buckets.txt"
  after=(); for pid in "${MASTER_PIDS[@]}"; do after+=("$(cpu_ticks "$pid")"); done
  requests=$(sed -n 's/^bench_requests=//p' "$RUN/logs/leg-$buckets.txt")
  unexpected=$(sed -n 's/^bench_unexpected=//p' "$RUN/logs/leg-$buckets.txt")
  accepted=$((requests - unexpected))
  p99=$(sed -n 's/^bench_p99_us=//p' "$RUN/logs/leg-$buckets.txt")
  per=(); total=0; busiest=0
  for i in 0 1 2; do
    ms=$(((after[i] - before[i]) * TICK_MS))
    per+=("$(awk -v ms="$ms" -v n="$accepted" 'BEGIN { printf "%.1f", ms * 1000 / n }')")
    total=$((total + ms))
    if ((ms > busiest)); then busiest=$ms; fi
  done
  share=$(awk -v b="$busiest" -v t="$total" 'BEGIN { printf "%.0f %%", t ? 100 * b / t : 0 }')
  rate=$(awk -v n="$accepted" -v s="$SECONDS_PER_LEG" 'BEGIN { printf "%.0f", n / s }')
  echo "| $buckets | $placement | $rate | $((p99 / 1000)) ms | ${per[0]} / ${per[1]} / ${per[2]} | $share |" >> "$RUN/summary.md"
  echo "bench: $buckets bucket(s): $rate accepted/s ($unexpected not 202), CPU ms per 1,000: ${per[*]}"
done

{
  echo
  echo "Time to sell out $UNITS units (wrk until GET /api/vouchers/{id} says 0 remaining):"
  echo
  echo "| buckets | sold out after | orders/s |"
  echo "| ---: | ---: | ---: |"
} >> "$RUN/summary.md"
for buckets in 1 4; do
  id=$(voucher "$UNITS" "$buckets")
  wrk -t2 -c64 -d120s -s "$ROOT/bench/intake.lua" "$API" -- "$id" > "$RUN/logs/sellout-$buckets.txt" &
  WRK=$!
  started=$(date +%s%N)
  until [ "$(curl -s "$API/api/vouchers/$id" | sed -n 's/.*"remaining":\([0-9]*\).*/\1/p')" = 0 ]; do sleep 0.05; done
  ms=$((($(date +%s%N) - started) / 1000000))
  kill "$WRK" 2>/dev/null || true; wait "$WRK" 2>/dev/null || true
  echo "| $buckets | $ms ms | $((UNITS * 1000 / ms)) |" >> "$RUN/summary.md"
  echo "bench: $UNITS units in $buckets bucket(s) sold out in $ms ms"
done
echo "bench: summary in $RUN/summary.md"
cat "$RUN/summary.md"
