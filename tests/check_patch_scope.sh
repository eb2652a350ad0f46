#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The patch series keeps upstream's code where behaviour is meant to be
# unchanged:
#  - no patch removes a line of upstream's MPI 4 send-cancel deprecation
#    code (the warning a program may ask for when it cancels a send);
#  - the PMLs' own files (ompi/mca/pml/) are patched only by a patch whose
#    header says "Every build", i.e. a fix of a stock defect meant for
#    every program; the fork's features reach the send and receive paths
#    through the bindings, not by editing the PMLs.
# Usage: tests/check_patch_scope.sh [PATCH...]   (default: the series of
# every base)

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
cd "$OMPI_QUEUE_ROOT"

status=0
if [ $# -gt 0 ]; then
    args=("$@")
else
    mapfile -t args < <(for b in $OMPI_BASES; do OMPI_BASE=$b ompi_queue_patches; done | LC_ALL=C sort -u)
fi
for p in "${args[@]}"; do
    removed=$(grep -nE '^-[^-].*(ompi_request_empty_send|mca_pml_cancel_send_callback|WARN_DEP_CANCEL_SEND)' "$p" || true)
    if [ -n "$removed" ]; then
        echo "$p removes upstream's send-cancel deprecation code:"
        echo "$removed" | sed 's/^/    /'
        status=1
    fi
    pml=$(grep -E '^\+\+\+ b/ompi/mca/pml/' "$p" | awk '{print $2}' | sed 's|^b/||' || true)
    header=$(sed -n '1,/^\(diff \|--- \)/p' "$p")
    if [ -n "$pml" ] && ! grep -q '^Every build' <<< "$header"; then
        echo "$p patches PML files without saying \"Every build\" in its header: $(echo $pml)"
        status=1
    fi
done

[ "$status" = 0 ] && echo "patch scope OK"
exit $status
