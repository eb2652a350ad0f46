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
# one node that this script starts for the job and stops after it: munged
# (unless one already answers on munge's default socket, which PMIx's
# psec/munge and Slurm's auth/munge both use), slurmctld and slurmd, with
# their configuration, state, spool and logs in a directory of the build
# tree; nothing is installed as a service.  Every process that carries this
# cluster's SLURM_CONF in its environment (the daemons, slurmstepd, the
# ranks) is stopped at the end, failure included.
#
# Usage: tests/slurm/run-slurm.sh MODE [-n NP] [MPIRUN-ARGS...] -- PROGRAM [ARGS...]
#   MODE srun    srun --mpi=pmix starts the ranks (no mpirun); MPIRUN-ARGS
#                may only be "--mca NAME VALUE" pairs, given to the ranks
#                as OMPI_MCA_NAME=VALUE.  A rank that prints PMIx's "component
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
    set -- "${mpirun_args[@]}"
    while [ $# -gt 0 ]; do
        if [ "$1" = "--mca" ] && [ $# -ge 3 ]; then
            mca_env+=("OMPI_MCA_$2=$3")
            shift 3
        else
            echo "run-slurm.sh: $mode starts the ranks without mpirun: \"$1\" needs salloc or sbatch" >&2
            exit 2
        fi
    done
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
dir=$OMPI_QUEUE_BUILD/slurm/run.$$
conf=$dir/slurm.conf
rm -rf "$dir"
mkdir -p "$dir/state" "$dir/spool/$node" "$dir/log" "$dir/munge"
export SLURM_CONF=$conf

cleanup() {
    local rc=$? p pids=() _
    set +e
    # everything of this cluster carries its SLURM_CONF
    for p in /proc/[0-9]*; do
        [ "${p#/proc/}" = "$$" ] && continue
        tr '\0' '\n' 2> /dev/null < "$p/environ" | grep -qxF "SLURM_CONF=$conf" && pids+=("${p#/proc/}")
    done
    if [ ${#pids[@]} -gt 0 ]; then
        kill -TERM "${pids[@]}" 2> /dev/null
        for _ in $(seq 30); do
            kill -0 "${pids[@]}" 2> /dev/null || break
            sleep 0.1
        done
        kill -KILL "${pids[@]}" 2> /dev/null
    fi
    if [ "$rc" != 0 ]; then
        for f in "$dir"/log/*.log; do
            [ -f "$f" ] && { echo "slurm: --- tail of ${f##*/} ---"; tail -n 15 "$f"; }
        done
    fi
    [ "${QTEST_SLURM_KEEP:-0}" = 1 ] || rm -rf "$dir"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP

# munge: the default socket is the one every client library uses
if ! munge -n 2> /dev/null | unmunge > /dev/null 2>&1; then
    mkdir -p /run/munge
    chmod 755 /run/munge
    chmod 700 "$dir/munge"
    head -c 1024 /dev/urandom > "$dir/munge/key"
    chmod 400 "$dir/munge/key"
    munged --force --key-file="$dir/munge/key" --log-file="$dir/log/munged.log" \
        --pid-file="$dir/munge/pid" --seed-file="$dir/munge/seed" \
        || { echo "slurm: munged did not start"; exit 1; }
    munge -n 2> /dev/null | unmunge > /dev/null 2>&1 || { echo "slurm: munge does not answer"; exit 1; }
fi

# ports of this run's own, so that a cluster left by a killed run is not
# this one; more CPUs than the machine has (config_overrides), so that the
# jobs of 4 ranks fit on 2 cores, as mpirun --oversubscribe does
port=$((20000 + ($$ % 5000) * 2))
cat > "$conf" << EOF
ClusterName=qtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=$node NodeAddr=127.0.0.1 CPUs=8 Boards=1 SocketsPerBoard=1 CoresPerSocket=8 ThreadsPerCore=1 State=UNKNOWN
PartitionName=qtest Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
slurmctld -D -i -f "$conf" > "$dir/log/slurmctld.out" 2>&1 &
slurmd -D -f "$conf" > "$dir/log/slurmd.out" 2>&1 &
for _ in $(seq 100); do
    [ "$(sinfo -h -n "$node" -o %t 2> /dev/null)" = idle ] && break
    sleep 0.2
done
[ "$(sinfo -h -n "$node" -o %t 2> /dev/null)" = idle ] \
    || { echo "slurm: node $node not idle after 20 s: $(sinfo -h -n "$node" -o '%t %E' 2>&1)"; exit 1; }
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
