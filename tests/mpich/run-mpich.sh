#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Builds the MPICH test subset (tests/mpich/subset.txt) against the Open MPI
# installed at PREFIX, runs every case with that install's mpirun over ob1
# and shared memory (or MPICH_TEST_TRANSPORT), and writes RESULTS: one line "NAME NP VERDICT" per case,
# VERDICT being PASS, FAIL or TIMEOUT.  Ends with "N passed, N failed".
#
# Usage: tests/mpich/run-mpich.sh PREFIX RESULTS [NAME-PATTERN...]
# (a case runs when its name matches one of the patterns; default all)
#
# A case passes as with MPICH's runtests: mpirun exits 0, the output has a
# line "No Errors", and every other line is "Test Passed" (any other output
# fails it).  Each case runs once: a case that failed once has failed.  A
# case listed as TIMEOUT in MPICH_TEST_KNOWN (a results file: the stock
# failures) gets MPICH_TEST_KNOWN_TIMEOUT seconds only, since it cannot
# count against the install either way.
# RESULTS.times gets "NAME NP SECONDS VERDICT" for each case.
# Cases run MPICH_TEST_JOBS (default 2) at a time, their ranks yielding when
# idle; each is a session of its own, and whatever a case leaves running is
# ended with it.
# Environment: MPICH_TEST_TIMEOUT (seconds per run, default 180: the slowest
# passing case takes 18 s on a quiet machine and 3-4 times that on a loaded
# one, which must not turn it into a failure),
# MPICH_TEST_KNOWN_TIMEOUT (default 10), MPICH_TEST_MAXNP (default 4), MPICH_TEST_KNOWN, MAKE_JOBS,
# MPICH_TEST_TRANSPORT (mpirun's arguments that choose the PML, default
# "--mca pml ob1 --mca btl self,sm"; cases' logs go to logs-cm/ when it
# names pml cm).

set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../contrib/queue/common.sh"

prefix=${1:?usage: run-mpich.sh PREFIX RESULTS [NAME-PATTERN...]}
results=${2:?usage: run-mpich.sh PREFIX RESULTS [NAME-PATTERN...]}
shift 2
patterns=("${@:-*}")
[ ${#patterns[@]} = 0 ] && patterns=("*")
transport=${MPICH_TEST_TRANSPORT:---mca pml ob1 --mca btl self,sm}
timeout_s=${MPICH_TEST_TIMEOUT:-180}
known_timeout_s=${MPICH_TEST_KNOWN_TIMEOUT:-10}
known=${MPICH_TEST_KNOWN:-/dev/null}

[ -x "$prefix/bin/mpirun" ] || die "no $prefix/bin/mpirun"
prefix=$(cd "$prefix" && pwd)
if [ "$(id -u)" = "0" ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# the programs print failures themselves and exit 0; runtests' convention
unset MPITEST_RETURN_WITH_CODE

t0=$SECONDS
obj=$(bash "$OMPI_QUEUE_ROOT/tests/mpich/build-suite.sh" "$prefix") || die "the MPICH tests did not build"
src=$OMPI_QUEUE_BUILD/mpich-tests/mpi
build_s=$((SECONDS - t0))

logdir=$obj/logs
[[ "$transport" == *"pml cm"* ]] && logdir=$obj/logs-cm
rm -rf "$logdir"
mkdir -p "$logdir" "$(dirname "$results")"
: > "$results"
: > "$results.times"

verdict_of() {   # exit-status log -> PASS | FAIL | TIMEOUT
    if [ "$1" = 124 ] || [ "$1" = 137 ]; then
        echo TIMEOUT
    elif [ "$1" = 0 ] && grep -Eq '^[[:space:]]*No [Ee]rrors[[:space:]]*$' "$2" \
        && ! grep -Evq '^[[:space:]]*(No [Ee]rrors|Test Passed)[[:space:]]*$|FORTRAN STOP' "$2"; then
        echo PASS
    else
        echo FAIL
    fi
}

known_as() {   # name np -> the verdict MPICH_TEST_KNOWN lists, or nothing
    awk -v k="$1 $2" '!/^#/ && $1 " " $2 == k { print $3; exit }' "$known"
}

run_case() {   # log seconds np dir prog env args
    local log=$1 limit=$2 np=$3 dir=$4 prog=$5 env=$6 args=$7 pid rc
    [ "$env" = - ] && env=""
    [ "$args" = - ] && args=""
    if [ ! -x "$obj/$dir/$prog" ]; then
        echo "$obj/$dir/$prog was not built (see $obj/make.log)" > "$log"
        return 1
    fi
    # a session of its own (setsid in a background job does not fork: the
    # session's id is the job's pid), so that ranks a killed mpirun left
    # behind, which would slow every later case, end with it
    # shellcheck disable=SC2086
    (cd "$obj/$dir" && exec setsid env $env timeout -k 5 "$limit" "$prefix/bin/mpirun" \
        --oversubscribe -n "$np" $transport ./"$prog" $args) > "$log" 2>&1 < /dev/null &
    pid=$!
    # stopped from outside (the gate's deadline): the case's session goes too
    trap 'pkill -9 -s "$pid" 2> /dev/null; exit 143' TERM
    wait "$pid"
    rc=$?
    pkill -9 -s "$pid" 2> /dev/null
    return "$rc"
}

one_case() {   # n name np dir prog env args: runs it, records its verdict
    local n=$1 name=$2 np=$3 log was limit t v
    shift 3
    log=$logdir/$(printf '%03d' "$n")-$(printf '%s' "$name" | tr -c 'A-Za-z0-9_.=+-' '_' | cut -c1-100).$np.log
    was=$(known_as "$name" "$np")
    limit=$timeout_s
    [ "$was" = TIMEOUT ] && limit=$known_timeout_s
    t=$SECONDS
    run_case "$log" "$limit" "$np" "$@"
    v=$(verdict_of $? "$log")
    # one short line a write: lines of cases ending together stay whole
    echo "$name $np $v" >> "$results"
    echo "$name $np $((SECONDS - t)) $v" >> "$results.times"
    [ "$v" = PASS ] || echo "$v $name $np (${was:+fails on stock too; }log: $log)"
}

jobs=${MPICH_TEST_JOBS:-2}
# two cases of polling ranks on as many cores as ranks: a rank that waits
# spins on the core its peer needs and a case takes several times as long
# as alone; yielding when idle lets the rank that holds the work run
# (stock's lists are made by this script too, the same way)
if [ "$jobs" -gt 1 ]; then
    export OMPI_MCA_mpi_yield_when_idle=${OMPI_MCA_mpi_yield_when_idle:-1}
fi
# a stop from outside reaches the cases running in the background
trap 'kill -TERM $(jobs -p) 2> /dev/null; exit 143' TERM INT
skipped=0
n=0
t1=$SECONDS
while IFS=$'\t' read -r kind name np dir prog env args; do
    wanted=0
    for pattern in "${patterns[@]}"; do
        # shellcheck disable=SC2053
        [[ "$name" == $pattern ]] && wanted=1 && break
    done
    [ "$wanted" = 1 ] || continue
    if [ "$kind" = SKIP ]; then
        skipped=$((skipped + 1))
        continue
    fi
    n=$((n + 1))
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
        wait -n
    done
    one_case "$n" "$name" "$np" "$dir" "$prog" "$env" "$args" &
done < <(bash "$OMPI_QUEUE_ROOT/tests/mpich/list-cases.sh" "$obj" "$src")
wait
passed=$(grep -c ' PASS$' "$results")
failed=$(grep -vc ' PASS$' "$results")

echo "mpich subset against $prefix ($transport): build ${build_s}s, run $((SECONDS - t1))s, $skipped skipped (not counted)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
