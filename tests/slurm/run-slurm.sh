#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# One MPI job launched the way Slurm sites launch it, on a Slurm cluster of
# one node that this script starts for the job and stops after it, failure
# included (tests/slurm/cluster.sh: munged unless one answers, slurmctld
# and slurmd, their files in build/slurm/; nothing installed as a service).
# Across two nodes: tests/netns/run-netns.sh --slurm MODE.
#
# Usage: tests/slurm/run-slurm.sh MODE [-n NP] [MPIRUN-ARGS...] -- PROGRAM [ARGS...]
#   MODE srun    srun --mpi=pmix starts the ranks (no mpirun); MPIRUN-ARGS
#                may only be "--mca NAME VALUE" and "-x NAME=VALUE", given
#                to the ranks as variables.  A rank that prints PMIx's "component
#                was not found" banner fails the run.
#   MODE salloc  salloc -n NP, and in the allocation the fork's mpirun (PRRTE
#                starts its daemons with srun) with MPIRUN-ARGS
#   MODE sbatch  an sbatch --wait job script that runs mpirun the same way;
#                its output file is printed after the job ended
#   MODE bad-none, bad-pmi2
#                srun --mpi=none or --mpi=pmi2 (set-ups Open MPI 5 cannot
#                run in): the run must end within the watchdog with a message
#                that names srun --mpi=pmix; prints "OK:" then
# Environment: MPIRUN (default the fork's install), QTEST_TIMEOUT (the
# test's watchdog; the job gets 30 s more), QTEST_SLURM_KEEP=1 keeps the
# cluster's directory.
# Prints "SKIP: <reason>" and exits 0 where it cannot run (not root, no
# Slurm, munge or Slurm's PMIx plugin: Debian's slurm-wlm, munge and
# libpmix-dev).

set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../../contrib/queue/common.sh"
source "$here/cluster.sh"

usage() { echo "usage: run-slurm.sh srun|salloc|sbatch|bad-none|bad-pmi2 [-n NP] [MPIRUN-ARGS...] -- PROGRAM [ARGS...]" >&2; exit 2; }
skip() { echo "SKIP: $*"; exit 0; }

mode=${1:-}
case "$mode" in
srun | salloc | sbatch | bad-none | bad-pmi2) shift ;;
*) usage ;;
esac
np=2
if [ "${1:-}" = "-n" ]; then
    [ $# -ge 2 ] || usage
    np=$2
    shift 2
fi
mpirun_args=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    mpirun_args+=("$1")
    shift
done
[ "${1:-}" = "--" ] || usage
shift
[ $# -ge 1 ] || usage
program=("$@")
[[ "$np" =~ ^[1-9][0-9]*$ ]] || usage

# under srun the ranks take their settings from the environment
mca_env=()
if [ "$mode" != salloc ] && [ "$mode" != sbatch ]; then
    slurm_args_to_env "${mpirun_args[@]}" || exit 2
    mca_env=("${slurm_env[@]}")
fi

[ "$(id -u)" = "0" ] || skip "not root: the Slurm daemons run as root here"
for c in slurmctld slurmd srun salloc sbatch sinfo scontrol munged munge unmunge; do
    command -v "$c" > /dev/null || skip "no $c (Debian: slurm-wlm, munge, libpmix-dev)"
done
MPIRUN=${MPIRUN:-$PREFIX/bin/mpirun}
[ -x "$MPIRUN" ] || { echo "no $MPIRUN: build first" >&2; exit 1; }
limit=$((${QTEST_TIMEOUT:-90} + 30))
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

node=$(hostname -s)
slurm_cluster_setup "$OMPI_QUEUE_BUILD/slurm/run.$$"
dir=$slurm_dir
trap 'rc=$?; set +e; slurm_cluster_stop "$rc"; exit "$rc"' EXIT
trap 'exit 143' TERM INT HUP

slurm_munge_up
slurm_cluster_conf "$node" 127.0.0.1 "$node=127.0.0.1"
# slurm_cluster_stop ends them: no notice of their signals
slurmctld -D -i -f "$SLURM_CONF" > "$dir/log/slurmctld.out" 2>&1 &
disown
slurmd -D -f "$SLURM_CONF" > "$dir/log/slurmd.out" 2>&1 &
disown
slurm_cluster_wait "$node"
srun --mpi=list 2>&1 | grep -qw pmix || skip "Slurm has no mpi/pmix plugin (Debian: libpmix-dev)"
echo "slurm: cluster of one node ($node), $mode, $np rank(s)"

rc=0
case "$mode" in
srun)
    timeout -k 10 "$limit" env "${mca_env[@]}" srun --mpi=pmix -n "$np" --overcommit \
        --kill-on-bad-exit=1 "${program[@]}" > "$dir/out" 2>&1 < /dev/null || rc=$?
    cat "$dir/out"
    if grep -q 'A requested component was not found' "$dir/out"; then
        echo "slurm: FAIL: the ranks printed PMIx's \"component was not found\" banner"
        [ "$rc" = 0 ] && rc=1
    fi
    ;;
salloc)
    timeout -k 10 "$limit" salloc -n "$np" --overcommit "$MPIRUN" -n "$np" --bind-to none \
        "${mpirun_args[@]}" "${program[@]}" < /dev/null || rc=$?
    ;;
sbatch)
    {
        echo '#!/bin/bash'
        printf 'exec %q -n %q --bind-to none' "$MPIRUN" "$np"
        printf ' %q' "${mpirun_args[@]}" "${program[@]}"
        echo
    } > "$dir/job.sh"
    timeout -k 10 "$limit" sbatch --wait --quiet -n "$np" --overcommit -o "$dir/job.out" \
        "$dir/job.sh" < /dev/null || rc=$?
    echo "slurm: --- the job's output file ---"
    cat "$dir/job.out" 2> /dev/null || echo "slurm: FAIL: no output file"
    [ -f "$dir/job.out" ] || { [ "$rc" = 0 ] && rc=1; }
    ;;
bad-none | bad-pmi2)
    # ranks without the PMIx they need must say so and end
    rc2=0
    timeout -k 10 "$limit" env "${mca_env[@]}" srun --mpi="${mode#bad-}" -n "$np" --overcommit \
        "${program[@]}" > "$dir/out" 2>&1 < /dev/null || rc2=$?
    cat "$dir/out"
    if [ "$rc2" = 124 ] || [ "$rc2" = 137 ]; then
        echo "slurm: FAIL: srun --mpi=${mode#bad-} did not end within ${limit}s"
        rc=1
    elif [ "$rc2" = 0 ]; then
        echo "slurm: FAIL: srun --mpi=${mode#bad-} exited 0"
        rc=1
    elif ! grep -q -- '--mpi=pmix' "$dir/out"; then
        echo "slurm: FAIL: srun --mpi=${mode#bad-} ended (exit $rc2) without a message naming srun --mpi=pmix"
        rc=1
    else
        echo "OK: srun --mpi=${mode#bad-} ended (exit $rc2) with a message naming srun --mpi=pmix"
    fi
    ;;
esac
[ "$rc" = 124 ] && echo "slurm: the job did not finish within ${limit}s"
exit "$rc"
