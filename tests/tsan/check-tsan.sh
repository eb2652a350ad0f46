#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# make check-tsan: the cases of tests/tsan/check.list (every case of make
# check that runs our code on more than one thread in a process) with our
# C files and the files patches/ touch built with ThreadSanitizer
# (tests/asan/build-overlay.sh tsan, build/tsan-overlay/), the ranks
# loading them with the runtime preloaded; every report sorted into ours
# and stock's (tests/asan/sort-reports.py): one of ours fails the run.
# Stock reports are suppressed only with a reason
# (tests/tsan/suppressions.txt).  docs/sanitizers.md says what it covers.
#
# Usage: tests/tsan/check-tsan.sh [NAME-FILTER [CASE-FILTER]] (as
# tests/run-tests.sh; OMPI_QUEUE_NO_BUILD=1 skips the build).  Ends with
# "N passed, N failed".

set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
OMPI_QUEUE_SANITIZER=tsan OMPI_QUEUE_SANITIZE_ONLY=1 OMPI_QUEUE_SANITIZE=1 \
    exec bash tests/run-tests.sh "$@"
