# Shared by bench/run.sh and bench/first-seconds.sh: sourced, not run.

die() { echo "bench: $*" >&2; exit 1; }
say() { printf '%s  %s\n' "$(date -u +%H:%M:%S)" "$*"; }
# The value of KEY=... in a results file.
val() { sed -n "s/^$1=//p" "$2" | tail -n 1; }
calc() { awk "BEGIN { printf \"%.${2:-0}f\", $1 }"; }
# A ratio in per cent, or n/a when either figure is missing.
percent() { if [[ "$1" =~ ^[0-9.]+$ && "$2" =~ ^[0-9.]+$ ]] && awk "BEGIN { exit !($2 > 0) }"; then calc "100 * $1 / $2" 1; else echo n/a; fi; }
group() { sed -E ':a; s/^([0-9]+)([0-9]{3})/\1,\2/; ta' <<<"$1"; }

# SIGTERM, then SIGKILL after SECONDS.
stop_pid() { # pid seconds
  local pid=$1 waited=0
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid"
  while kill -0 "$pid" 2>/dev/null && ((waited < $2)); do
    sleep 1
    waited=$((waited + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    say "process $pid did not stop in $2 s; killing it"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
}

# Compiles bench/reference/ReferenceIntake.java into $WORK/reference and sets REFERENCE_CP. Needs ROOT, WORK and
# LIB (the service jar's BOOT-INF/lib, unpacked).
compile_reference() {
  # The reference controller gets Spring MVC, Spring Data Redis and Lettuce from the service's own libraries, and
  # nothing else (no Camel, no database, no actuator), as a hand-written controller would have.
  REFERENCE_CP="$WORK/reference"
  for jar in "$LIB"/*.jar; do
    case "$(basename "$jar")" in
      spring-aop-* | spring-beans-* | spring-boot-3* | spring-boot-autoconfigure-* | spring-context-6* | spring-core-* | \
        spring-data-commons-* | spring-data-keyvalue-* | spring-data-redis-* | spring-expression-* | spring-jcl-* | \
        spring-oxm-* | spring-tx-* | spring-web-* | spring-webmvc-* | tomcat-embed-* | jackson-annotations-* | \
        jackson-core-* | jackson-databind-* | jackson-datatype-jdk8-* | jackson-datatype-jsr310-* | \
        jackson-module-parameter-names-* | lettuce-core-* | netty-* | reactor-core-* | reactive-streams-* | \
        micrometer-commons-* | micrometer-observation-* | slf4j-api-* | logback-* | jul-to-slf4j-* | log4j-* | \
        snakeyaml-2* | jakarta.annotation-api-* | redis-authx-*)
        REFERENCE_CP+=":$jar" ;;
    esac
  done
  javac -parameters -d "$WORK/reference" -cp "$REFERENCE_CP" "$ROOT/bench/reference/ReferenceIntake.java"
}
