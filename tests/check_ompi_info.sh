#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# ompi_info shows the match and queue frameworks, their components and
# their parameters, the base's version and the fork's (its own line, the
# ident string).

set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../contrib/queue/common.sh"
info=$PREFIX/bin/ompi_info
status=0

fail() { echo "FAIL: $*"; status=1; }

components=$("$info" --parsable 2>&1) || fail "ompi_info exited non-zero"
for want in "match:pml" "match:sm" "match:ucx" "match:ofi" "queue:default" "queue:cuda" "queue:hip"; do
    fw=${want%%:*}
    comp=${want##*:}
    grep -q "^mca:$fw:$comp:version" <<< "$components" || fail "ompi_info does not list component $comp of framework $fw"
done

params=$("$info" --param queue all --level 9 --parsable 2>&1)
for p in queue_base_verbose queue_default_priority queue_cuda_priority queue_cuda_driver_library \
         queue_hip_priority queue_hip_runtime_library; do
    grep -q ":param:$p:value:" <<< "$params" || fail "ompi_info --param queue all does not show $p"
done
params=$("$info" --param match all --level 9 --parsable 2>&1)
for p in match_base_verbose match_base_fallback match_pml_priority match_sm_priority \
         match_sm_chunk_size match_sm_ring_chunks match_sm_max_channels match_sm_single_copy \
         match_sm_single_copy_threshold match_ucx_priority match_ucx_max_channels \
         match_ucx_eager_limit match_ucx_same_node match_ofi_priority match_ofi_max_channels \
         match_ofi_inject_limit match_ofi_same_node match_ofi_provider_include; do
    grep -q ":param:$p:value:" <<< "$params" || fail "ompi_info --param match all does not show $p"
done
params=$("$info" --param mpi all --level 9 --parsable 2>&1)
for p in mpi_async_progress mpi_async_progress_spin mpi_async_progress_max_sleep_us \
         mpi_async_progress_watch_sleep_us; do
    grep -q ":param:$p:value:" <<< "$params" || fail "ompi_info --param mpi all does not show $p"
done

# whole outputs into variables: with pipefail, "ompi_info | grep -q" fails
# whenever grep stops reading before ompi_info has written everything
summary=$("$info" 2>&1)
grep -Eq "MCA queue: default" <<< "$summary" || fail "plain ompi_info does not show 'MCA queue: default'"
version=$(ompi_queue_version)
grep -Eq "^ *Queued communication: $version \(draft chapter 'Queued Communication'\)$" <<< "$summary" \
    || fail "ompi_info does not show 'Queued communication: $version (draft chapter ...)'"
# the base as its release names itself (a git tree's VERSION would say
# 5.0.10rc2: common.sh, ompi_prepare_tree)
grep -Eq "^ *Open MPI: $OMPI_VERSION$" <<< "$summary" || fail "ompi_info's Open MPI version is not $OMPI_VERSION"
grep -Eq "^ *Open MPI repo revision: v$OMPI_VERSION$" <<< "$summary" \
    || fail "ompi_info's repo revision is not v$OMPI_VERSION"
grep -Eq "^ *Ident string: $OMPI_VERSION-queue-$version$" <<< "$summary" \
    || fail "ompi_info's ident string is not $OMPI_VERSION-queue-$version"
grep -Eq "MPI extensions:.*graphs" <<< "$summary" || fail "ompi_info does not list the graphs MPI extension"

[ "$status" = 0 ] && echo "ompi_info lists the match and queue frameworks and version $version"
exit $status
