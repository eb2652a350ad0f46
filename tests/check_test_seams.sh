#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# No test seam in the product: the installed libmpi exports nothing of the
# emulated stream (queue/emulated, a test double) and no entry point made
# for the tests; the install holds no queue/emulated; ompi_info lists that
# component only when the component path names its build directory, and
# no file of ours looks up another component's parameter by name.

set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
status=0
fail() { echo "FAIL: $*"; status=1; }

lib=$PREFIX/lib/libmpi.so
[ -f "$lib" ] || { echo "FAIL: no $lib: build first"; exit 1; }
seams=$(nm -D --defined-only "$lib" | awk '{print $NF}' \
        | grep -E 'emulated|_emu_|stream_captures' || true)
[ -z "$seams" ] || fail "libmpi exports test seams: $(echo $seams)"

installed=$(find "$PREFIX" -name 'mca_queue_emulated*' -o -name 'queue_emulated*' | head -5)
[ -z "$installed" ] || fail "queue/emulated is installed: $(echo $installed)"

so=$OMPI_QUEUE_TEST_COMPONENTS/mca_queue_emulated.so
if [ ! -f "$so" ]; then
    fail "no $so (ompi/mca/queue/emulated builds it)"
else
    for sym in mca_queue_emulated_component mca_queue_emulated_stream_create \
               mca_queue_emulated_fail_graph_retain; do
        nm -D --defined-only "$so" | grep -qw "$sym" || fail "$so does not export $sym"
    done
    plain=$("$PREFIX/bin/ompi_info" 2>&1 | grep -c 'MCA queue: emulated')
    [ "$plain" = 0 ] || fail "ompi_info lists queue/emulated without the test component path"
    with=$(env $(ompi_queue_emulated_env) "$PREFIX/bin/ompi_info" 2>&1 \
           | grep -c 'MCA queue: emulated')
    [ "$with" = 1 ] || fail "ompi_info does not list queue/emulated with $(ompi_queue_emulated_env)"
fi

# a component reads its own parameters (through its own registration)
readers=$(cd "$OMPI_QUEUE_ROOT" && git grep -n 'mca_base_var_find' -- ompi opal 2>/dev/null || true)
[ -z "$readers" ] || fail "our files look up parameters by name: $readers"

[ 0 = "$status" ] && echo "no test seam in libmpi or the install; queue/emulated loads from the build tree only"
exit $status
