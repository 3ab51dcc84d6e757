#!/usr/bin/env bash
# Instructions the service's process executes per request, counted by valgrind's callgrind: a
# count, not a time, so two configurations compare to within a percent or two even on a busy
# machine where req/s moves by 10-30 % from one run to the next (docs/benchmarks.md "Tracing").
#
#   bench/request-instructions.sh [-n REQUESTS] [-w WARMUP] [-p PORT] [-d SERVICE_DIR] [-u DATABASE_URL] [-c WINDOWS] [-s] [VAR=VALUE ...]
#
# Starts the built service (SERVICE_DIR/dist/src/main.js, default: this checkout; `npm run build`
# first) under callgrind with the given variables, creates one person, warms up with WARMUP gets
# of it by id (`depth=0`, 4 connections; default 4,000: fewer leave JIT compilation in the count),
# then counts the instructions of REQUESTS more (default 4,000) and prints their count per
# request, of all threads and of the main thread (the one that serves the requests). That count
# includes what runs by the clock meanwhile (the import worker's and the change feed's polls, the
# span exports: about 3 % with tracing off), the same for each configuration.
# Two runs of one configuration agree within 0.5 %. The database (default crm_instructions on 127.0.0.1:5432) is created and migrated if it
# does not exist. Needs valgrind (Debian package); about 7 minutes a run.
# `-c WINDOWS`: no valgrind; the CPU time (user + system) of the process and of its main thread
# over WINDOWS windows of REQUESTS gets each (default 8,000 with -c), printed per 1,000 requests,
# window by window (all threads/main thread): a minute a configuration, closer to what req/s
# pays, noisier (take medians).
# `-s`: callgrind also simulates the caches and the branch predictor (`--cache-sim=yes
# --branch-sim=yes`, two to three times slower) and prints, per request in the main thread, the
# simulated first-level instruction and data cache misses, last-level misses and mispredicted
# branches: where CPU time grows more than instructions, and the machine has no hardware counters
# to say why (`perf stat` is not supported on a VM without a PMU).
# Example, tracing at 10 % against a local collector (bench/otlp-sink.ts):
#   bench/request-instructions.sh OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 \
#     OTEL_TRACES_SAMPLER=parentbased_traceidratio OTEL_TRACES_SAMPLER_ARG=0.1
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
REQUESTS= WARMUP=4000 WINDOWS=0 SIMULATE= PORT=7790 SERVICE_DIR=$ROOT DATABASE_URL=postgres://postgres@127.0.0.1:5432/crm_instructions
while getopts "n:w:p:d:u:c:s" option; do
  case $option in
    n) REQUESTS=$OPTARG ;;
    w) WARMUP=$OPTARG ;;
    p) PORT=$OPTARG ;;
    d) SERVICE_DIR=$(cd "$OPTARG" && pwd) ;;
    u) DATABASE_URL=$OPTARG ;;
    c) WINDOWS=$OPTARG ;;
    s) SIMULATE="--cache-sim=yes --branch-sim=yes" ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ -n "$REQUESTS" ] || REQUESTS=$([ "$WINDOWS" -gt 0 ] && echo 8000 || echo 4000)
[ -z "$SIMULATE" ] || [ "$WINDOWS" -eq 0 ] || { echo "-s simulates under callgrind, which -c does not run" >&2; exit 2; }
[ "$WINDOWS" -gt 0 ] || command -v valgrind > /dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'kill "$SERVER" 2> /dev/null || true; rm -rf "$WORK"' EXIT
# one encryption key per database, kept beside it (the service refuses to start without it)
KEY_FILE=${TMPDIR:-/tmp}/request-instructions.$(echo "$DATABASE_URL" | md5sum | cut -c1-8).key
[ -s "$KEY_FILE" ] || openssl rand -base64 32 > "$KEY_FILE"
export ENCRYPTION_KEY=$(cat "$KEY_FILE") DATABASE_URL
ADMIN_URL=${DATABASE_URL%/*}/postgres
DATABASE=${DATABASE_URL##*/}
if [ -z "$(psql "$ADMIN_URL" -Atc "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'")" ]; then
  psql "$ADMIN_URL" -qc "CREATE DATABASE \"$DATABASE\""
fi
node "$SERVICE_DIR/dist/src/cli/migrate.js" > /dev/null
TOKEN=$(node "$SERVICE_DIR/dist/src/cli/create-api-key.js" --name instructions --days 1 | tail -1)

# valgrind names its control pipes after $HOST, which the service reads as its listen address too
export HOST=127.0.0.1
(cd "$SERVICE_DIR" && exec env PORT="$PORT" METRICS_PORT=0 LOG_LEVEL=info BOOTSTRAP_API_KEY=false \
  RATE_LIMIT_PER_SECOND=1000000 RATE_LIMIT_PER_MINUTE=60000000 WEBHOOK_DISPATCH=false "$@" \
  $([ "$WINDOWS" -gt 0 ] || echo valgrind --tool=callgrind --separate-threads=yes $SIMULATE --callgrind-out-file="$WORK/callgrind.%p") node dist/src/main.js > "$WORK/service.log" 2>&1) &
SERVER=$!
BASE=http://127.0.0.1:$PORT/rest
for _ in $(seq 1 600); do curl -sf "$BASE/health" > /dev/null && break; sleep 1; done
ID=$(curl -sf -X POST -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \
  -d '{"name":{"firstName":"Ada","lastName":"Lovelace"},"city":"London"}' "$BASE/people?depth=0" |
  node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>console.log(JSON.parse(s).data.createPerson.id))')
load() { npx --no-install autocannon -c 4 -a "$1" -H "authorization=Bearer $TOKEN" "$BASE/people/$ID?depth=0" 2>&1 | grep -E '2xx|requests in' | tr -s ' \n' ' '; }
# the instructions counted since the last zero, once dumped: all threads', then the main thread's
# (the one that serves requests; a worker thread, such as the span export's, runs beside it)
counted() {
  callgrind_control -d "$SERVER" > /dev/null
  sleep 1
  local dump=$(ls -t "$WORK"/callgrind.*.[0-9]*-01 | head -1)
  local total=0 main
  for file in "${dump%-01}"-*; do total=$((total + $(grep -hE '^(summary|totals):' "$file" | head -1 | awk '{print $2}'))); done
  main=$(grep -hE '^(summary|totals):' "$dump" | head -1 | awk '{print $2}')
  echo "$total $main"
  [ -z "$SIMULATE" ] || simulated "$dump" >&2
}
# the main thread's simulated misses per request, from its dump's event names and totals
simulated() {
  awk -v n="$REQUESTS" '/^events:/ { for (i = 2; i <= NF; i++) name[i - 1] = $i }
    /^(summary|totals):/ && !done { for (i = 2; i <= NF; i++) e[name[i - 1]] = $i; done = 1 }
    END { printf "main thread, per request: I1 misses %.0f, D1 misses %.0f, LL misses %.0f, mispredicted branches %.0f\n",
      e["I1mr"] / n, (e["D1mr"] + e["D1mw"]) / n, (e["ILmr"] + e["DLmr"] + e["DLmw"]) / n, (e["Bcm"] + e["Bim"]) / n }' "$1"
}
load "$WARMUP" > /dev/null
sleep 6 # the warm-up's spans exported (every 5 s by default) before the count starts
if [ "$WINDOWS" -gt 0 ]; then
  # clock ticks (1/100 s) of the process (all threads) and of its main thread
  cpu() { awk '{print $14 + $15}' "/proc/$SERVER/stat" "/proc/$SERVER/task/$SERVER/stat" | paste -sd' '; }
  RESULT=""
  for _ in $(seq 1 "$WINDOWS"); do
    read -r ALL MAIN <<< "$(cpu)"
    load "$REQUESTS" > /dev/null
    read -r ALL_AFTER MAIN_AFTER <<< "$(cpu)"
    RESULT="$RESULT $(((ALL_AFTER - ALL) * 10 * 1000 / REQUESTS))/$(((MAIN_AFTER - MAIN) * 10 * 1000 / REQUESTS))"
  done
  echo "$(node --version) $* : CPU ms per 1,000 requests (all threads/main thread), by window:$RESULT"
  exit 0
fi
callgrind_control -z "$SERVER" > /dev/null
RESULT=$(load "$REQUESTS")
read -r TOTAL MAIN <<< "$(counted)"
echo "$(node --version) $* : $((TOTAL / REQUESTS)) instructions per request, $((MAIN / REQUESTS)) in the main thread ($RESULT)"
