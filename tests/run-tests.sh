#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The test command: builds the fork if needed, expands the test lists into a
# plan (tests/plan.py: the script checks tests/check_*.sh, then every case of
# tests/tests.list, its transports and channels named in tests/recipes.list),
# runs it (tests/run-plan.py: one verdict file per case), then the sanitizer
# pass: the cases of tests/asan/check.list again, with our C files built with
# AddressSanitizer and UBSan (docs/sanitizers.md).  Ends with the line
# "N passed, N failed" counted from the verdict files (exit 1 on any failure).
# Each case runs once: a case that failed once has failed.  A case that
# cannot run here prints SKIP and is not counted as passed; a failure listed
# in tests/known-stock-failures.txt is reported as a known stock failure and
# is not counted as passed either.
#
# Usage: tests/run-tests.sh [--plan | --count] [--tier quick] [NAME-FILTER [CASE-FILTER]]
#   --plan: print the plan (one case a line) and run nothing; --count: say
#   how many cases, of what;
#   --tier quick: only the cases of make check-quick (one launch of every
#   program, ob1, 2 ranks, the default channel; no sanitizer pass);
#   NAME-FILTER: a substring of the program names to run ("" for all);
#   CASE-FILTER: a substring of the case's plan line, e.g. "ucx" (the UCX
#   PML), "cm" (pml cm over tcp), "cmsock" (over sockets), "chan-ucx" (the
#   ucx match channel), "4 ranks", "OMPI_MCA_match=pml"
# Environment: OMPI_QUEUE_NO_BUILD=1 skips the build step; QTEST_VERBOSE=1
# prints every step of every rank; QTEST_JOBS (default 2): launches at a time
# (tests/run-plan.py: never two of one program, serial cases alone, and the
# ranks yield when idle when over 1);
# OMPI_QUEUE_TEST_CM=0 skips the cases of transports cm and cmsock; PREFIX,
# OMPI_QUEUE_BUILD (its test-logs/) and QTEST_BINDIR (default tests/bin) run
# the plan on another install (tests/asan/check-asan.sh); OMPI_BASE=5.0.10
# sets the three defaults to that base's (install-5.0.10, build-5.0.10,
# tests/bin-5.0.10) and builds it when needed; QTEST_LOGDIR
# (default $OMPI_QUEUE_BUILD/test-logs): the logs, the plans and the verdict
# files (a run inside a case of make check needs its own);
# OMPI_QUEUE_SANITIZE=0 leaves out the sanitizer pass,
# OMPI_QUEUE_SANITIZE_LIST gives it another list; OMPI_QUEUE_SANITIZER=tsan
# makes it a ThreadSanitizer pass over tests/tsan/check.list (make
# check-tsan, tests/tsan/check-tsan.sh), and OMPI_QUEUE_SANITIZE_ONLY=1 runs
# the pass alone, without the plan of stage 1.

set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
show_plan=0
tier=""
while [ $# -gt 0 ]; do
    case "$1" in
    --plan) show_plan=1; shift ;;
    --count) show_plan=count; shift ;;
    --tier) tier=$2; shift 2 ;;
    *) break ;;
    esac
done
filter=${1:-}
case_filter=${2:-}
cd "$OMPI_QUEUE_ROOT"
# the runner (tests/run-plan.py) and the script checks take the install
# and the base from the environment: those of this run, the base's defaults
# included (common.sh)
export OMPI_BASE PREFIX OMPI_QUEUE_BUILD OMPI_QUEUE_TEST_COMPONENTS

GPU=no-gpu
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    GPU=gpu-cuda
fi
plan_of() {   # list label -> the plan on stdout
    python3 tests/plan.py --list "$1" ${2:+--label "$2"} --gpu "$GPU" ${tier:+--tier "$tier"} \
        ${3:+--scripts} "$filter" "$case_filter"
}
if [ "$show_plan" = 1 ]; then
    plan_of tests/tests.list "" scripts
    exit
fi
# the sanitizer pass of stage 2: which sanitizer, over which list
san=${OMPI_QUEUE_SANITIZER:-asan}
case "$san" in
asan|tsan) ;;
*) echo "OMPI_QUEUE_SANITIZER=$san: asan or tsan"; echo "0 passed, 1 failed"; exit 1 ;;
esac
sanitize_list=${OMPI_QUEUE_SANITIZE_LIST:-tests/$san/check.list}
sanitize_only=${OMPI_QUEUE_SANITIZE_ONLY:-0}
if [ "$show_plan" = count ]; then
    [ "$sanitize_only" = 1 ] \
        || python3 tests/plan.py --count --scripts --gpu "$GPU" ${tier:+--tier "$tier"} "$filter" "$case_filter"
    if [ "$tier" != quick ]; then
        python3 tests/plan.py --count --list "$sanitize_list" --label "$san" --gpu "$GPU" \
            "$filter" "$case_filter"
        echo "and the sanitizer pass's own verdict (its reports sorted)"
    fi
    exit
fi

stage_start=$SECONDS
stage_end() {   # name: how long the stage took (CI's log shows each)
    echo "stage: $1: $((SECONDS - stage_start)) s"
    stage_start=$SECONDS
}
if [ "${OMPI_QUEUE_NO_BUILD:-0}" != "1" ]; then
    bash contrib/queue/build.sh || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
    stage_end build
fi

MPIRUN=$PREFIX/bin/mpirun
[ -x "$MPIRUN" ] || { echo "no $MPIRUN: build first"; echo "0 passed, 1 failed"; exit 1; }
if [ "$(id -u)" = "0" ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export QTEST_TIMEOUT=${QTEST_TIMEOUT:-90}
jobs=${QTEST_JOBS:-2}

logdir=${QTEST_LOGDIR:-$OMPI_QUEUE_BUILD/test-logs}
bindir=${QTEST_BINDIR:-$OMPI_QUEUE_ROOT/tests/bin$OMPI_BASE_SUFFIX}
verdicts=$logdir/verdicts
rm -rf "$verdicts"
mkdir -p "$logdir" "$bindir" "$verdicts"

verdict() {   # VERDICT id name log: one verdict file of the runner's kind
    printf '%s\t%s\t%s\t-\n' "$1" "$3" "${4:--}" > "$verdicts/$2"
    case "$1" in
    PASS) echo "PASS $3" ;;
    SKIP) echo "SKIP $3" ;;
    *)    echo "FAIL $3"; [ -f "${4:-}" ] && tail -n 25 "$4" | sed 's/^/    | /' ;;
    esac
}

# 1. the plan: the script checks and every case of tests/tests.list
plan=$logdir/plan.tsv
if [ "$sanitize_only" = 1 ]; then
    : > "$plan"
elif ! plan_of tests/tests.list "" scripts > "$plan" 2> "$logdir/plan.log"; then
    verdict FAIL plan "the plan of tests/tests.list" "$logdir/plan.log"
else
    python3 tests/run-plan.py run "$plan" "$verdicts" --logdir "$logdir" --bindir "$bindir" \
        --jobs "$jobs"
fi
[ "$sanitize_only" = 1 ] || stage_end "the plan ($(($(wc -l < "$plan") - 1)) cases)"

# 2. the sanitizer pass: the cases of tests/asan/check.list again, with our
# C files (the overlay and every file patches/ touches) built with
# AddressSanitizer and UndefinedBehaviorSanitizer (tests/asan/build-overlay.sh,
# docs/sanitizers.md), then every report sorted into ours and stock's: one of
# ours fails the pass.  OMPI_QUEUE_SANITIZE=0 leaves it out; make check-asan,
# which instruments all of Open MPI, runs the whole list instead.  With
# OMPI_QUEUE_SANITIZER=tsan the same with ThreadSanitizer over the cases
# that run our code on more than one thread (tests/tsan/check.list).
[ "$tier" = quick ] && OMPI_QUEUE_SANITIZE=0
san_plan=$logdir/plan-$san.tsv
if [ "${OMPI_QUEUE_SANITIZE:-1}" != 0 ]; then
    plan_of "$sanitize_list" "$san" > "$san_plan" 2> "$logdir/plan-$san.log" \
        || verdict FAIL "plan-$san" "the plan of $sanitize_list" "$logdir/plan-$san.log"
fi
if [ "${OMPI_QUEUE_SANITIZE:-1}" != 0 ] && [ "$(wc -l < "$san_plan")" -gt 1 ]; then
    san_logdir=$logdir/$san
    san_build_log=$logdir/$san-overlay.build.log
    if [ "${OMPI_QUEUE_PREBUILT:-0}" = 1 ]; then
        verdict SKIP "$san-pass" "$san pass (SKIP: a prebuilt bundle has no build tree to instrument)"
    elif ! bash tests/asan/build-overlay.sh "$san" > "$san_build_log" 2>&1; then
        verdict FAIL "$san-pass" "$san pass (build of the instrumented overlay)" "$san_build_log"
    else
        overlay=$OMPI_QUEUE_BUILD/$san-overlay/$(basename "$OMPI_QUEUE_SRC")
        reports=$logdir/$san-reports
        rm -rf "$san_logdir" "$reports"
        mkdir -p "$reports" "$san_logdir"
        # only the ranks (mpirun -x) load the instrumented libraries, with
        # the sanitizer's runtime first; mpirun, its daemons and the scripts
        # around them run as in the rest of make check.  A memory error ends
        # its process, UBSan and TSan report and go on, and the sort decides.
        overlay_libs=$overlay/ompi/.libs:$overlay/opal/.libs:$overlay/ompi/mpi/fortran/mpif-h/.libs
        pass_args=(
            -x "LD_PRELOAD=$(gcc -print-file-name=lib$san.so)"
            -x "LD_LIBRARY_PATH=$overlay_libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
            # the sanitizers keep freed memory in quarantine
            -x "QTEST_NO_RSS=1"
        )
        if [ "$san" = asan ]; then
            pass_args+=(
                -x "ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:log_path=$reports/asan:log_exe_name=1"
                -x "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=0:log_path=$reports/ubsan:log_exe_name=1"
            )
        else
            # stock code only, each with its reason (docs/sanitizers.md);
            # a process runs 5 to 15 times slower: the watchdogs wait longer.
            # The longest history (QTEST_TSAN_HISTORY, 0 to 7): with less,
            # the earlier access of a race is sometimes not restored, and
            # the sort cannot tell whose it is
            pass_args+=(
                -x "TSAN_OPTIONS=halt_on_error=0:exitcode=0:report_signal_unsafe=0:history_size=${QTEST_TSAN_HISTORY:-7}:log_path=$reports/tsan:log_exe_name=1:suppressions=$OMPI_QUEUE_ROOT/tests/tsan/suppressions.txt"
                -x "QTEST_TIMEOUT=${QTEST_TSAN_TIMEOUT:-300}"
                # tests/queue_stress.c at a reduced count
                -x "QTEST_STRESS_ITERS=${QTEST_TSAN_STRESS_ITERS:-300}"
                # glibc's AIO workers start one another out of the runtime's
                # sight, and those crash in it (tests/ompio_threads.c)
                -x "QTEST_AIO_THREADS=1"
                # PMIx's gds/shmem2 maps its segment at a fixed address,
                # inside what the runtime reserves for its shadow memory
                -x "PMIX_MCA_gds=hash"
                # Open MPI's and UCX's hooks of munmap and madvise run in
                # glibc's teardown of an exiting thread, after the runtime
                # let go of it, and crash there: neither is installed
                -x "OMPI_MCA_memory=^patcher"
                -x "UCX_MEM_MMAP_HOOK_MODE=none" -x "UCX_MEM_MALLOC_HOOKS=no" -x "UCX_MEM_EVENTS=no"
            )
        fi
        # the ranks must load the instrumented library, not the installed one
        # (the loader lists what it would load: ldd is a shell script, and
        # bash does not run under ThreadSanitizer's runtime)
        loaded=$("$MPIRUN" -n 1 "${pass_args[@]}" -x LD_TRACE_LOADED_OBJECTS=1 "$PREFIX/bin/ompi_info" 2>&1 \
                 | sed -n 's/^[[:space:]]*libmpi\.so[^ ]* => \([^ ]*\).*/\1/p')
        if [ "$loaded" != "$overlay/ompi/.libs/libmpi.so.40" ]; then
            echo "ranks load libmpi from: $loaded" >> "$san_build_log"
            verdict FAIL "$san-pass" "$san pass (ranks do not load the instrumented libmpi)" "$san_build_log"
        else
            margs=()
            for a in "${pass_args[@]}"; do
                margs+=("--mpirun-arg=$a")
            done
            san_ran=1
            # and the overlay's queue/emulated, instrumented with the rest
            OMPI_QUEUE_TEST_COMPONENTS=$overlay/ompi/mca/queue/emulated/.libs \
                python3 tests/run-plan.py run "$san_plan" "$verdicts" --logdir "$san_logdir" \
                --bindir "$bindir" --jobs "$jobs" "${margs[@]}"
            sort_log=$san_logdir/sanitizer-reports.log
            # a TSan report on a line of a patched file that no patch changed is stock's
            pristine=()
            if [ "$san" = tsan ]; then
                pristine=(--pristine "$(bash contrib/queue/fetch-upstream.sh --no-download)")
            fi
            if python3 tests/asan/sort-reports.py --root "$OMPI_QUEUE_ROOT" --tree "$overlay" \
                   --patched "$OMPI_QUEUE_BUILD/.patched-files" "${pristine[@]}" "$reports" "$san_logdir" \
                   > "$sort_log" 2>&1; then
                verdict PASS "$san-pass" "$san pass: no sanitizer report in our code ($(tail -n 1 "$sort_log"))"
            else
                verdict FAIL "$san-pass" "$san pass: sanitizer reports in our code" "$sort_log"
            fi
        fi
    fi
    stage_end "the $san pass (its build included)"
fi

# skipped cases and known stock failures are neither passed nor failed; the
# last line is the summary of every verdict file
summary_plans=()
[ -s "$plan" ] && summary_plans+=(--plan "$plan")
[ "${san_ran:-0}" = 1 ] && summary_plans+=(--plan "$san_plan")
python3 tests/run-plan.py summary "$verdicts" "${summary_plans[@]}"
