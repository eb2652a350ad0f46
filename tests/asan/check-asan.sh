#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# make check-asan: the fork built with AddressSanitizer and
# UndefinedBehaviorSanitizer (build-asan/, install-asan/: all of Open MPI
# instrumented, so our directories, the files patches/ touches and the code
# they call; with OMPI_BASE=5.0.10, build-asan-5.0.10/ and so on), then the whole test list on that install (test programs in
# tests/bin-asan/, linked with the sanitizers through the wrapper
# compilers).  Every report is sorted into ours (its first frame in the
# Open MPI tree is in a file of this repository, a file patches/ touches,
# or a test) and stock's (tests/asan/sort-reports.py); ours fail the run.
#
# Usage: tests/asan/check-asan.sh [NAME-FILTER [CASE-FILTER]] (as
# tests/run-tests.sh).  Environment: OMPI_QUEUE_NO_BUILD=1 skips the build.
# Leaks are not looked for here (LeakSanitizer would end every process that
# Open MPI leaves memory to at exit): bench/run-soak.sh runs valgrind.

set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# the base's suffix (OMPI_BASE, common.sh): each base its own asan tree
suffix=$(bash -c 'source "$1/contrib/queue/common.sh" && echo "$OMPI_BASE_SUFFIX"' - "$root") || exit 1
export OMPI_QUEUE_BUILD=$root/build-asan$suffix
export PREFIX=$root/install-asan$suffix
export QTEST_BINDIR=$root/tests/bin-asan$suffix
# this build's queue/emulated, not the one of a run around this one
unset OMPI_QUEUE_TEST_COMPONENTS
source "$root/contrib/queue/common.sh"
# all of Open MPI is instrumented here: make check's own sanitizer pass
# (tests/asan/build-overlay.sh) would repeat a part of this run
export OMPI_QUEUE_SANITIZE=0
san="-fsanitize=address,undefined -fno-omit-frame-pointer"
# configure reads CFLAGS and LDFLAGS from the environment; the wrapper
# compilers link every program with the sanitizers' runtimes first
export CFLAGS="-g -O1 $san" LDFLAGS="$san"
export CONFIGURE_EXTRA="--with-wrapper-ldflags=-fsanitize=address,undefined"

if [ "${OMPI_QUEUE_NO_BUILD:-0}" != "1" ]; then
    bash "$root/contrib/queue/build.sh" || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
fi

# reports reach the sanitizers' log files or, under mpirun, the test logs
reports=$OMPI_QUEUE_BUILD/sanitizer-reports
rm -rf "$reports" "$OMPI_QUEUE_BUILD/test-logs"
mkdir -p "$reports"
# halt_on_error: a memory error ends the process (its test fails); UBSan
# reports and goes on, and the sort below decides
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:log_path=$reports/asan:log_exe_name=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=0:log_path=$reports/ubsan:log_exe_name=1"
# the sanitizers' slower runs get more time before a watchdog fires, and
# keep freed memory in quarantine: no test checks resident memory
export QTEST_TIMEOUT=${QTEST_TIMEOUT:-240} QTEST_NO_RSS=1
# CFLAGS and LDFLAGS were for Open MPI's configure, not for the tests
unset CFLAGS LDFLAGS

OMPI_QUEUE_NO_BUILD=1 bash "$root/tests/run-tests.sh" "$@" | tee "$OMPI_QUEUE_BUILD/check-asan.log"
tests_rc=${PIPESTATUS[0]}

python3 "$root/tests/asan/sort-reports.py" --root "$root" \
    --tree "$OMPI_QUEUE_SRC" --patched "$OMPI_QUEUE_BUILD/.patched-files" \
    "$reports" "$OMPI_QUEUE_BUILD/test-logs"
sort_rc=$?
# the last line stays the test count
tail -n 1 "$OMPI_QUEUE_BUILD/check-asan.log"
[ "$tests_rc" = 0 ] && [ "$sort_rc" = 0 ]
