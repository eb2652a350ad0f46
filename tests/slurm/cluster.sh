#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# A Slurm cluster for one test launch, sourced by tests/slurm/run-slurm.sh
# (one node: this machine) and tests/netns/run-netns.sh --slurm (the two
# namespace nodes).  Its configuration, state, spool and logs are in one
# directory; nothing is installed as a service.  Every process that carries
# the cluster's SLURM_CONF in its environment (slurmctld, each slurmd,
# slurmstepd, srun, the ranks, and munged when the cluster started it) is
# the cluster's, and slurm_cluster_stop ends them all.
#
#   slurm_cluster_setup DIR      make DIR, export SLURM_CONF (DIR/slurm.conf)
#   slurm_munge_up               start munged on munge's default socket
#                                (the one PMIx's psec/munge and Slurm's
#                                auth/munge use) unless one answers there
#   slurm_cluster_conf CTLD-NODE CTLD-ADDR NODE=ADDR...
#                                write the configuration: the controller on
#                                CTLD-NODE at CTLD-ADDR, the compute nodes
#   slurm_cluster_wait NODE...   wait until each node is idle (20 s), asking
#                                through slurm_exec (the caller's, to reach
#                                the controller's network; default: here)
#   slurm_args_to_env ARGS...    mpirun's "--mca NAME VALUE" and "-x NAME=VALUE"
#                                as variables for the ranks srun starts, in
#                                the array slurm_env; 1 on any other argument
#   slurm_cluster_stop RC        end every process of the cluster; show the
#                                logs' tails when RC is not 0; remove DIR
#                                unless QTEST_SLURM_KEEP=1

declare -F slurm_exec > /dev/null || slurm_exec() { "$@"; }

slurm_cluster_setup() {
    slurm_dir=$1
    rm -rf "$slurm_dir"
    mkdir -p "$slurm_dir/state" "$slurm_dir/spool" "$slurm_dir/log" "$slurm_dir/munge"
    export SLURM_CONF=$slurm_dir/slurm.conf
}

slurm_munge_up() {
    munge -n 2> /dev/null | unmunge > /dev/null 2>&1 && return 0
    mkdir -p /run/munge
    chmod 755 /run/munge
    chmod 700 "$slurm_dir/munge"
    head -c 1024 /dev/urandom > "$slurm_dir/munge/key"
    chmod 400 "$slurm_dir/munge/key"
    munged --force --key-file="$slurm_dir/munge/key" --log-file="$slurm_dir/log/munged.log" \
        --pid-file="$slurm_dir/munge/pid" --seed-file="$slurm_dir/munge/seed" \
        || { echo "slurm: munged did not start"; return 1; }
    munge -n 2> /dev/null | unmunge > /dev/null 2>&1 || { echo "slurm: munge does not answer"; return 1; }
}

slurm_cluster_conf() {
    local ctld=$1 ctld_addr=$2 n names=() port
    shift 2
    # ports of this run's own, so that a cluster left by a killed run is
    # not this one
    port=$((20000 + ($$ % 5000) * 2))
    {
        cat << EOF
ClusterName=qtest
SlurmctldHost=$ctld($ctld_addr)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$slurm_dir/state
SlurmdSpoolDir=$slurm_dir/spool/%n
SlurmctldPidFile=$slurm_dir/slurmctld.pid
SlurmdPidFile=$slurm_dir/slurmd-%n.pid
SlurmctldLogFile=$slurm_dir/log/slurmctld.log
SlurmdLogFile=$slurm_dir/log/slurmd-%n.log
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
EOF
        # more CPUs than the machine has (config_overrides), so that jobs
        # of 4 ranks fit on 2 cores, as mpirun --oversubscribe lets them
        for n in "$@"; do
            echo "NodeName=${n%%=*} NodeAddr=${n#*=} CPUs=8 Boards=1 SocketsPerBoard=1 CoresPerSocket=8 ThreadsPerCore=1 State=UNKNOWN"
            names+=("${n%%=*}")
        done
        echo "PartitionName=qtest Nodes=$(IFS=,; echo "${names[*]}") Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES"
    } > "$SLURM_CONF"
    for n in "${names[@]}"; do
        mkdir -p "$slurm_dir/spool/$n"
    done
}

slurm_cluster_wait() {
    local n _ state
    for n in "$@"; do
        for _ in $(seq 100); do
            state=$(slurm_exec sinfo -h -n "$n" -o %t 2> /dev/null)
            [ "$state" = idle ] && break
            sleep 0.2
        done
        [ "$state" = idle ] || { echo "slurm: node $n not idle after 20 s: $(slurm_exec sinfo -h -n "$n" -o '%t %E' 2>&1)"; return 1; }
    done
}

slurm_args_to_env() {
    slurm_env=()
    while [ $# -gt 0 ]; do
        if [ "$1" = "--mca" ] && [ $# -ge 3 ]; then
            slurm_env+=("OMPI_MCA_$2=$3")
            shift 3
        elif [ "$1" = "-x" ] && [ $# -ge 2 ]; then
            slurm_env+=("$2")
            shift 2
        else
            echo "slurm: srun starts the ranks without mpirun: \"$1\" needs salloc or sbatch" >&2
            return 1
        fi
    done
}

slurm_cluster_stop() {
    local rc=$1 p pids=() _ f
    for p in /proc/[0-9]*; do
        [ "${p#/proc/}" = "$$" ] && continue
        tr '\0' '\n' 2> /dev/null < "$p/environ" | grep -qxF "SLURM_CONF=$SLURM_CONF" && pids+=("${p#/proc/}")
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
        for f in "$slurm_dir"/log/*.log; do
            [ -f "$f" ] && { echo "slurm: --- tail of ${f##*/} ---"; tail -n 15 "$f"; }
        done
    fi
    [ "${QTEST_SLURM_KEEP:-0}" = 1 ] || rm -rf "$slurm_dir"
    return 0
}
