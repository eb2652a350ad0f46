#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The runner's own check (tests/plan.py, tests/run-plan.py): a grouped
# program (tests/runner/behaviours.c) whose behaviours pass, fail, hang and
# crash, launched once over ob1: each behaviour gets its own verdict, the
# hang and the crash are named, the behaviours after them still run and
# pass, and an unknown behaviour fails; a plan case left without a verdict
# fails the summary.

set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
cd "$OMPI_QUEUE_ROOT" || exit 1
[ -x "$PREFIX/bin/mpicc" ] || { echo "SKIP: no $PREFIX/bin/mpicc"; exit 1; }
if [ "$(id -u)" = "0" ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$PREFIX/bin/mpicc" -Wall -Wextra -Werror -O1 -g -o "$tmp/behaviours" tests/runner/behaviours.c \
    || { echo "FAIL: tests/runner/behaviours.c does not build"; exit 1; }
cat > "$tmp/list" <<'LIST'
behaviours  2  ob1  {first,fails,hangs,middle,crashes,last,nosuch}
behaviours  2  ob1  {first,fails} alone
LIST
python3 tests/plan.py --list "$tmp/list" > "$tmp/plan" || { echo "FAIL: no plan"; exit 1; }
# the watchdog of each behaviour: 5 s, so that the hang ends soon
QTEST_TIMEOUT=5 OMPI_QUEUE_PREBUILT=1 python3 tests/run-plan.py run "$tmp/plan" "$tmp/verdicts" \
    --logdir "$tmp/logs" --bindir "$tmp" > "$tmp/out" 2>&1
expect() {   # behaviour verdict [pattern of its detail]
    local f="$tmp/verdicts/behaviours.ob1.2.$1" v detail
    if [ ! -f "$f" ]; then
        echo "FAIL: no verdict for $1"
        fail=1
        return
    fi
    v=$(cut -f1 "$f")
    detail=$(cut -f4 "$f")
    if [ "$v" != "$2" ] || { [ -n "${3:-}" ] && ! grep -qE "$3" <<< "$detail"; }; then
        echo "FAIL: $1: $v $detail (expected $2${3:+ matching /$3/})"
        fail=1
    fi
}
expect first PASS
expect fails FAIL 'FAILED'
expect hangs FAIL 'TIMEOUT.*hangs: waiting for nothing'
expect middle PASS
expect crashes FAIL 'CRASH|ended in this case'
expect last PASS
expect nosuch FAIL 'no case of that name'
expect first_alone PASS
expect fails_alone FAIL 'FAILED'
# a failed behaviour explains its launch's failed verdict: no second case
n=$(ls "$tmp/verdicts" | wc -l)
[ "$n" = 9 ] || { echo "FAIL: $n verdict files for 9 cases: $(ls "$tmp/verdicts" | tr '\n' ' ')"; fail=1; }
# three launches: the first ends in the hang, the second in the crash
n=$(ls "$tmp/logs" | grep -c '^behaviours\.ob1\.2\.cases\..*log$\|^behaviours\.ob1\.2\.cases\.log$')
[ "$n" = 3 ] || { echo "FAIL: $n launches, expected 3"; ls "$tmp/logs"; fail=1; }
# a case of the plan without a verdict is a failure of the summary
rm -f "$tmp/verdicts/behaviours.ob1.2.first"
python3 tests/run-plan.py summary "$tmp/verdicts" --plan "$tmp/plan" > "$tmp/summary"
tail -n 1 "$tmp/summary" | grep -qx '3 passed, 6 failed' \
    || { echo "FAIL: the summary says \"$(tail -n 1 "$tmp/summary")\", not 3 passed, 6 failed (one case left without a verdict)"; fail=1; }
if [ "$fail" != 0 ]; then
    sed 's/^/    | /' "$tmp/out"
    exit 1
fi
echo "OK: each behaviour its verdict; after the hang and the crash the others ran"
