#!/usr/bin/env bash
# beside.sh LOG SIDE FIRST SECOND: run the commands FIRST and then SECOND in the foreground, and SIDE beside them
# from the start, its output kept in LOG and shown once SECOND has ended; exits non-zero if any of them failed.
#
# Why: `make test` is CPU-bound on a small machine, and the fault tests and `make test-lowest` (SIDE) leave a core
# idle much of their time (servers killed and waited for, a venv installed on one core), while the checks (FIRST)
# run on one core and the suite (SECOND) has idle moments of its own; beside each other the run ends minutes
# sooner. SIDE's output is held back so the suite's progress stays readable.
#
# When FIRST fails, SIDE is stopped at once (no point waiting minutes for a run that has already failed); Ctrl-C
# stops all of it. SIDE is stopped with SIGINT, so pytest runs its teardown: the fault tests' own PostgreSQL and
# Redis servers are stopped, not left running.
set -uo pipefail
# Started with SIGINT ignored (a non-interactive shell's background job, `.ci/run &`), everything this starts would
# ignore it too: an ignored signal stays ignored across exec, and bash can't trap one ignored when it started. Then
# neither stopping SIDE nor Ctrl-C would stop anything, so start again with SIGINT's and SIGQUIT's default action.
# (BESIDE_SIGNALS_RESET: once only, should env not do it; unset after, or a beside.sh among what this one runs, as
# in tests/test_beside.py, would never reset its own.)
ignored=$(awk '/^SigIgn:/ {print $2}' /proc/$$/status 2>/dev/null)
if [ -n "$ignored" ] && (( 0x$ignored & 2 )) && [ -z "${BESIDE_SIGNALS_RESET:-}" ] \
  && env --default-signal=INT true 2>/dev/null; then
  BESIDE_SIGNALS_RESET=1 exec env --default-signal=INT,QUIT bash "$0" "$@"
fi
unset BESIDE_SIGNALS_RESET
log=$1 side=$2 first=$3 second=$4
mkdir -p "$(dirname "$log")"
set -m  # SIDE in a process group of its own, so that stopping it reaches every process it started
bash -c "$side" >"$log" 2>&1 &
side_pid=$!
set +m
stop_side() {
  if kill -0 "$side_pid" 2>/dev/null; then
    kill -INT -- "-$side_pid" 2>/dev/null
    wait "$side_pid" 2>/dev/null
  fi
}
trap 'stop_side; exit 130' INT TERM

if ! bash -c "$first"; then
  echo "beside.sh: '$first' failed: stopping '$side'" >&2
  stop_side
  exit 1
fi
bash -c "$second"
second_status=$?
echo "== beside the above: $side (output: $log)"
wait "$side_pid"
side_status=$?
cat "$log"
if [ "$second_status" -ne 0 ] || [ "$side_status" -ne 0 ]; then
  exit 1
fi
