#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The test command: builds the fork if needed, then runs
#   - the script checks tests/check_*.sh (repository and install checks),
#   - every multi-rank test of tests/tests.list with the installed mpirun,
#     over ob1 (shared memory; tcp where a line names ob1tcp), over UCX,
#     where a line names cm over pml cm (mtl ofi, libfabric's tcp provider;
#     cmsock: its sockets provider),
#     and with ULFM (mpirun --with-ft ulfm) where a line names ulfm-ob1 or
#     ulfm-ob1tcp,
#     and, where a line names netns-ucx or netns-ob1tcp, across two "nodes"
#     made of namespaces on this machine (tests/netns/run-netns.sh, root only),
#   - the sanitizer pass: the cases of tests/asan/check.list again, with our
#     C files built with AddressSanitizer and UBSan (docs/sanitizers.md),
# and ends with the line "N passed, N failed" (exit 1 on any failure).
# Each case runs once: a case that failed once has failed.  A case that
# cannot run here prints SKIP and is not counted as passed; a failure listed
# in tests/known-stock-failures.txt is reported as a known stock failure and
# is not counted as passed either.
#
# Usage: tests/run-tests.sh [NAME-FILTER [CASE-FILTER]]
#   NAME-FILTER: a substring of the test names to run ("" for all);
#   CASE-FILTER: a substring of the case line, e.g. "ucx," (the UCX PML),
#   "cm," (pml cm over tcp), "cmsock," (over sockets),
#   "chan-ucx" (the ucx match channel), "4 ranks"
# Environment: OMPI_QUEUE_NO_BUILD=1 skips the build step; QTEST_VERBOSE=1
# prints every step of every rank; OMPI_QUEUE_TEST_CM=0 skips the lines of
# transports cm and cmsock; PREFIX, OMPI_QUEUE_BUILD (its
# test-logs/) and QTEST_BINDIR (default tests/bin) run the list on another
# install (tests/asan/check-asan.sh); OMPI_QUEUE_SANITIZE=0 leaves out the
# sanitizer pass, OMPI_QUEUE_SANITIZE_LIST gives it another list.

set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
filter=${1:-}
case_filter=${2:-}
cd "$OMPI_QUEUE_ROOT"

if [ "${OMPI_QUEUE_NO_BUILD:-0}" != "1" ]; then
    bash contrib/queue/build.sh || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
fi

MPICC=$PREFIX/bin/mpicc
MPIFORT=$PREFIX/bin/mpifort
MPIRUN=$PREFIX/bin/mpirun
[ -x "$MPIRUN" ] || { echo "no $MPIRUN: build first"; echo "0 passed, 1 failed"; exit 1; }
if [ "$(id -u)" = "0" ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export QTEST_TIMEOUT=${QTEST_TIMEOUT:-90}
RUN_TIMEOUT=$((QTEST_TIMEOUT + 30))

declare -A TRANSPORT=(
    [ob1]="--mca pml ob1 --mca btl self,sm"
    [ob1tcp]="--mca pml ob1 --mca btl self,tcp"
    [ob1smcuda]="--mca pml ob1 --mca btl self,smcuda"
    [ucx]="--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any"
    [cm]="--mca pml cm --mca mtl ofi --mca opal_common_ofi_provider_include tcp"
    [cmsock]="--mca pml cm --mca mtl ofi --mca opal_common_ofi_provider_include sockets"
    [ulfm-ob1]="--with-ft ulfm --mca pml ob1 --mca btl self,sm"
    [ulfm-ob1tcp]="--with-ft ulfm --mca pml ob1 --mca btl self,tcp"
)

GPU=no-gpu
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    GPU=gpu-cuda
fi

passed=0
failed=0
skipped=0
known=0

# A failure of a case listed in tests/known-stock-failures.txt (test name,
# transport, a pattern its log must show, the reason) is a failure of stock
# Open MPI 5.0.7 that this fork cannot fix: it is reported as such, with its
# reason, and counted neither as passed nor as failed.  Any other failure of
# the same case counts as failed.
known_stock_failure() {   # name transport log -> prints the reason, if listed
    local n t pattern reason
    while IFS='|' read -r n t pattern reason; do
        [ -z "$n" ] || [[ "$n" == \#* ]] && continue
        n=${n// /}; t=${t// /}
        pattern=$(sed 's/^ *//; s/ *$//' <<< "$pattern")
        if [ "$n" = "$1" ] && [ "$t" = "$2" ] && grep -qaE "$pattern" "$3"; then
            sed 's/^ *//; s/ *$//' <<< "$reason"
            return
        fi
    done < "$OMPI_QUEUE_ROOT/tests/known-stock-failures.txt"
}
logdir=$OMPI_QUEUE_BUILD/test-logs
bindir=${QTEST_BINDIR:-$OMPI_QUEUE_ROOT/tests/bin}
mkdir -p "$logdir" "$bindir"

report() {   # verdict name log
    case "$1" in
    PASS) passed=$((passed + 1)); echo "PASS $2" ;;
    SKIP) skipped=$((skipped + 1)); echo "SKIP $2" ;;
    KNOWN) known=$((known + 1)); echo "KNOWN-STOCK-FAILURE $2"
          [ -f "$3" ] && tail -n 8 "$3" | sed 's/^/    | /' ;;
    *)    failed=$((failed + 1)); echo "FAIL $2"
          [ -f "$3" ] && tail -n 25 "$3" | sed 's/^/    | /' ;;
    esac
}

# 1. script checks
for t in tests/check_*.sh; do
    name=$(basename "$t" .sh)
    [ -n "$filter" ] && [[ "$name" != *$filter* ]] && continue
    log=$logdir/$name.log
    if timeout 600 bash "$t" > "$log" 2>&1; then
        report PASS "$name" "$log"
    elif grep -q '^SKIP' "$log"; then
        report SKIP "$name ($(grep -m1 '^SKIP' "$log"))" "$log"
    else
        report FAIL "$name" "$log"
    fi
done

# A test is tests/NAME.c (mpicc), tests/NAME.f90 or tests/NAME.f (mpifort),
# or both a C and a Fortran file (the C file compiled with mpicc, the
# program linked by mpifort).  Rebuilt when a source or the compiler
# wrapper is newer than the program.
build_test() {   # name exe
    local name=$1 exe=$2 csrc="" fsrc="" s
    [ -f "tests/$name.c" ] && csrc=tests/$name.c
    for s in "tests/$name.f90" "tests/$name.f"; do
        [ -f "$s" ] && fsrc=$s
    done
    # a machine without a compiler (the GPU machine) runs what was built
    # elsewhere (contrib/queue/device-bundle.sh)
    [ -x "$exe" ] && [ "${OMPI_QUEUE_PREBUILT:-0}" = 1 ] && return 0
    if [ -x "$exe" ]; then
        local stale=0
        for s in $csrc $fsrc tests/common/qtest.h "$MPICC" ${fsrc:+"$MPIFORT"}; do
            [ "$s" -nt "$exe" ] && stale=1
        done
        [ "$stale" = 0 ] && return 0
    fi
    if [ -z "$fsrc" ]; then
        "$MPICC" -Wall -Wextra -Werror -O2 -g -o "$exe" "$csrc"
        return
    fi
    [ -x "$MPIFORT" ] || { echo "no $MPIFORT: the build has no Fortran bindings"; return 1; }
    if [ -n "$csrc" ]; then
        "$MPICC" -Wall -Wextra -Werror -O2 -g -c -o "$exe.c.o" "$csrc" || return 1
    fi
    # mpif.h code (.f) passes buffers of several types to one procedure
    # with no interface, which gfortran >= 10 refuses unless told
    local fflags=(-Wall -Werror)
    [[ "$fsrc" == *.f ]] && fflags=(-Wall -fallow-argument-mismatch)
    # the module files of a mixed test go beside its program
    "$MPIFORT" "${fflags[@]}" -fimplicit-none -O2 -g -J "$bindir" -o "$exe" "$fsrc" \
        ${csrc:+"$exe.c.o"}
}

# 2. multi-rank tests: every case of a list (tests/tests.list), named with
# a label in front ("" or "asan ") and logged in a folder of its own
pass_args=()   # mpirun's arguments for every case of the pass (stage 3)
cases_run=0
run_list() {   # list label logdir
    local list=$1 label=$2 dir=$3
    mkdir -p "$dir"
    local name ranks transports args exe np tr w args_tag case_name case_timeout log rc reason
    local -a run_env prog_args
    while read -r name ranks transports args; do
        [ -z "$name" ] || [[ "$name" == \#* ]] && continue
        [ -n "$filter" ] && [[ "$name" != *$filter* ]] && continue
        exe=$bindir/$name
        if ! build_test "$name" "$exe" > "$logdir/$name.build.log" 2>&1; then
            report FAIL "$name (compile)" "$logdir/$name.build.log"
            continue
        fi
        args=${args//@GPU@/$GPU}
        # "env:NAME=VALUE" words set the environment of the run (mpirun forwards
        # OMPI_MCA_* to the ranks); the other words are the program's arguments
        run_env=()
        prog_args=()
        for w in $args; do
            case "$w" in
            env:*) run_env+=("${w#env:}") ;;
            *) prog_args+=("$w") ;;
            esac
        done
        # a case may give itself a longer watchdog (env:QTEST_TIMEOUT=N)
        case_timeout=$RUN_TIMEOUT
        for w in "${run_env[@]}"; do
            [[ "$w" == QTEST_TIMEOUT=* ]] && case_timeout=$((${w#QTEST_TIMEOUT=} + 30))
        done
        for np in ${ranks//,/ }; do
            for tr in ${transports//,/ }; do
                case_name="$label$name [$tr, $np ranks${args:+, $args}]"
                [ -n "$case_filter" ] && [[ "$case_name" != *"$case_filter"* ]] && continue
                if [[ "$tr" == cm* ]] && [ "${OMPI_QUEUE_TEST_CM:-1}" = 0 ]; then
                    report SKIP "$case_name (SKIP: OMPI_QUEUE_TEST_CM=0)" ""
                    continue
                fi
                args_tag=$(IFS=_; echo "${prog_args[*]}")
                log=$dir/$name.$tr.$np.${args_tag:-default}.log
                run_case() {
                    if [[ "$tr" == netns-* ]]; then
                        # across two "nodes" made of namespaces: the script sets
                        # them up, runs mpirun with its own watchdog, and removes
                        # them (or prints SKIP where it cannot)
                        # shellcheck disable=SC2086
                        env "${run_env[@]}" MPIRUN="$MPIRUN" \
                            timeout -k 10 $((case_timeout + 30)) \
                            bash tests/netns/run-netns.sh -n "$np" ${TRANSPORT[${tr#netns-}]} \
                            "${pass_args[@]}" -- \
                            "$exe" "${prog_args[@]}" > "$1" 2>&1 < /dev/null
                        return
                    fi
                    # shellcheck disable=SC2086
                    env "${run_env[@]}" timeout -k 10 "$case_timeout" \
                        "$MPIRUN" --oversubscribe -n "$np" ${TRANSPORT[$tr]} "${pass_args[@]}" \
                        "$exe" "${prog_args[@]}" > "$1" 2>&1 < /dev/null
                }
                # one run: a case that failed once has failed
                cases_run=$((cases_run + 1))
                run_case "$log"
                rc=$?
                # prterun's help output can leave a NUL byte in front of the
                # verdict line: read the log without NULs (grep reads it all: a
                # grep -q that stops early makes tr fail on a long log, and the
                # pipeline with it)
                if [ "$rc" = 0 ] && tr -d '\000' < "$log" | grep -a '^OK:' > /dev/null; then
                    report PASS "$case_name" "$log"
                elif [ "$rc" = 0 ] && tr -d '\000' < "$log" | grep -a '^SKIP' > /dev/null; then
                    report SKIP "$case_name ($(grep -m1 '^SKIP' "$log"))" "$log"
                else
                    [ "$rc" = 124 ] && echo "    | mpirun did not finish within ${case_timeout}s" >> "$log"
                    reason=$(known_stock_failure "$name" "$tr" "$log")
                    if [ -n "$reason" ]; then
                        report KNOWN "$case_name (exit $rc): known stock 5.0.7 failure: $reason" "$log"
                    else
                        report FAIL "$case_name (exit $rc)" "$log"
                    fi
                fi
            done
        done
    done < "$list"
}
run_list tests/tests.list "" "$logdir"

# 3. the sanitizer pass: the cases of tests/asan/check.list again, with our
# C files (the overlay and every file patches/ touches) built with
# AddressSanitizer and UndefinedBehaviorSanitizer (tests/asan/build-overlay.sh,
# docs/sanitizers.md), then every report sorted into ours and stock's: one of
# ours fails the pass.  OMPI_QUEUE_SANITIZE=0 leaves it out; make check-asan,
# which instruments all of Open MPI, runs the whole list instead.
sanitize_list=${OMPI_QUEUE_SANITIZE_LIST:-tests/asan/check.list}
sanitize_cases=$(grep -v '^#' "$sanitize_list" \
                 | awk -v f="$filter" 'NF && (f == "" || index($1, f)) { n++ } END { print n + 0 }')
if [ "${OMPI_QUEUE_SANITIZE:-1}" != 0 ] && [ "$sanitize_cases" -gt 0 ]; then
    asan_logdir=$logdir/asan
    asan_build_log=$logdir/asan-overlay.build.log
    if [ "${OMPI_QUEUE_PREBUILT:-0}" = 1 ]; then
        report SKIP "asan pass (SKIP: a prebuilt bundle has no build tree to instrument)" ""
    elif ! bash tests/asan/build-overlay.sh > "$asan_build_log" 2>&1; then
        report FAIL "asan pass (build of the instrumented overlay)" "$asan_build_log"
    else
        overlay=$OMPI_QUEUE_BUILD/asan-overlay/$(basename "$OMPI_QUEUE_SRC")
        reports=$logdir/asan-reports
        rm -rf "$asan_logdir" "$reports"
        mkdir -p "$reports"
        # only the ranks (mpirun -x) load the instrumented libraries, with
        # the sanitizers' runtime first; mpirun, its daemons and the scripts
        # around them run as in the rest of make check.  A memory error ends
        # its process, UBSan reports and goes on, and the sort decides.
        overlay_libs=$overlay/ompi/.libs:$overlay/opal/.libs:$overlay/ompi/mpi/fortran/mpif-h/.libs
        pass_args=(
            -x "LD_PRELOAD=$(gcc -print-file-name=libasan.so)"
            -x "LD_LIBRARY_PATH=$overlay_libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
            -x "ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:log_path=$reports/asan:log_exe_name=1"
            -x "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=0:log_path=$reports/ubsan:log_exe_name=1"
            # the sanitizers keep freed memory in quarantine
            -x "QTEST_NO_RSS=1"
        )
        # the ranks must load the instrumented library, not the installed one
        loaded=$("$MPIRUN" -n 1 "${pass_args[@]}" ldd "$PREFIX/bin/ompi_info" 2>&1 \
                 | sed -n 's/^[[:space:]]*libmpi\.so[^ ]* => \([^ ]*\).*/\1/p')
        if [ "$loaded" != "$overlay/ompi/.libs/libmpi.so.40" ]; then
            echo "ranks load libmpi from: $loaded" >> "$asan_build_log"
            report FAIL "asan pass (ranks do not load the instrumented libmpi)" "$asan_build_log"
        else
            cases_before=$cases_run
            run_list "$sanitize_list" "asan " "$asan_logdir"
            pass_args=()
            sort_log=$asan_logdir/sanitizer-reports.log
            if python3 tests/asan/sort-reports.py --root "$OMPI_QUEUE_ROOT" --tree "$overlay" \
                   --patched "$OMPI_QUEUE_BUILD/.patched-files" "$reports" "$asan_logdir" \
                   > "$sort_log" 2>&1; then
                # a case filter that left no case of the pass leaves no verdict
                if [ "$cases_run" -gt "$cases_before" ]; then
                    report PASS "asan pass: no sanitizer report in our code ($(tail -n 1 "$sort_log"))" \
                        "$sort_log"
                fi
            else
                report FAIL "asan pass: sanitizer reports in our code" "$sort_log"
            fi
        fi
    fi
fi

# skipped cases and known stock failures are neither passed nor failed; the
# last line stays the summary
[ "$skipped" -gt 0 ] && echo "$skipped skipped (not counted)"
[ "$known" -gt 0 ] && echo "$known known stock 5.0.7 failure(s) (not counted as passed)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
