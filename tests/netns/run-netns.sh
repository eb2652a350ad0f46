#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# One MPI job across two "nodes" on this machine.  Each node is a network
# namespace with its own address on a veth pair that joins the two, and (see
# enter-node.sh) its own UTS namespace with its own hostname and its own IPC
# namespace, so that PRRTE places the ranks on two hosts, Open MPI's
# locality sees the peer as remote and UCX finds no shared memory between
# them: the pairs across the nodes go over TCP.  mpirun runs on the first
# node and starts the daemon of the second through its ssh launcher, with
# enter-node.sh as the ssh agent.  The namespaces, the veth pair and
# whatever still runs in them are removed on exit, failure included.
#
# Each rank writes its output into files of its own, printed after mpirun's
# when the run has ended (or was stopped): PRRTE forwards output in pieces
# that are not whole lines and interleaves the ranks' pieces (also into its
# --output files), which cuts and joins the lines of fast verbose output.
#
# Usage: tests/netns/run-netns.sh [-n NP] [--slurm MODE] [MPIRUN-ARGS...] -- PROGRAM [ARGS...]
#   NP (even, default 2) ranks, NP/2 on each node: ranks 0 .. NP/2-1 on the
#   first, the others on the second.  MPIRUN-ARGS go to mpirun after the
#   placement and interface options this script gives.
#   --slurm MODE: the two nodes are a Slurm cluster (tests/slurm/cluster.sh:
#   the controller and a slurmd in the first, a slurmd in the second) and
#   the job is launched by srun --mpi=pmix (MODE srun: MPIRUN-ARGS only
#   "--mca NAME VALUE" and "-x NAME=VALUE", given to the ranks as
#   variables), by mpirun in salloc (salloc) or in an sbatch job (sbatch).
# Environment:
#   MPIRUN               the mpirun to use (default: the fork's install)
#   QTEST_NETNS_CHANNELS=1  also check the match framework's choice: every
#                        matched pair of MPI_COMM_WORLD ranks on different
#                        nodes got match/ucx (or the pml, for buffered
#                        sends), none got match/sm; pairs on one node got
#                        match/sm, not match/ucx; the ucx pairs put into the
#                        peer's memory (no mapped shared memory); UCX's RMA
#                        went over TCP on the veth.  Exit 1 if not.
#   QTEST_NETNS_CHANNELS=ofi  the same, except that the pairs across nodes
#                        got match/ofi, none match/ucx (match ^ucx), and
#                        UCX's endpoints are not checked.
#   QTEST_NETNS_CHANNELS=declined  the same, except that the channel for the
#                        pairs across nodes, ucx, must have declined them
#                        (under ULFM, where UCX emulates its puts over TCP):
#                        they got the pml channel, none got match/ucx.
#   QTEST_NETNS_CHANNELS=ofideclined  the same for the ofi channel (match
#                        ^ucx; under ULFM unless match_ofi_ulfm=1): the pairs
#                        across nodes got the pml channel, none match/ofi or
#                        match/ucx, and UCX's endpoints are not checked.
#   QTEST_TIMEOUT        the test's own watchdog; mpirun gets 30 s more.
# Prints "SKIP: <reason>" and exits 0 where it cannot run (not root, no
# iproute2 or unshare, network namespaces or veth pairs refused).

set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../../contrib/queue/common.sh"

usage() { echo "usage: run-netns.sh [-n NP] [MPIRUN-ARGS...] -- PROGRAM [ARGS...]" >&2; exit 2; }
skip() { echo "SKIP: $*"; exit 0; }

np=2
if [ "${1:-}" = "-n" ]; then
    [ $# -ge 2 ] || usage
    np=$2
    shift 2
fi
mpirun_args=()
slurm_mode=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    if [ "$1" = "--slurm" ] && [ $# -ge 2 ]; then
        slurm_mode=$2
        shift 2
        continue
    fi
    mpirun_args+=("$1")
    shift
done
[ "${1:-}" = "--" ] || usage
shift
[ $# -ge 1 ] || usage
program=("$@")
if ! [[ "$np" =~ ^[0-9]+$ ]] || [ "$np" -lt 2 ] || [ $((np % 2)) != 0 ]; then
    usage
fi
ppn=$((np / 2))

[ "$(id -u)" = "0" ] || skip "not root: network namespaces need root"
command -v ip > /dev/null || skip "no ip command (iproute2)"
command -v unshare > /dev/null || skip "no unshare command (util-linux)"
MPIRUN=${MPIRUN:-$PREFIX/bin/mpirun}
[ -x "$MPIRUN" ] || { echo "no $MPIRUN: build first" >&2; exit 1; }

# one interface name on both nodes, so that one if_include and one
# UCX_NET_DEVICES name it for every process
IF=ompiq0
NET=10.213.7
nodes=("ompiq$$a" "ompiq$$b")
made=()
if [ -n "$slurm_mode" ]; then
    # each slurmd has a /tmp of its own node (below): what both nodes
    # must see is kept outside it
    mkdir -p "$OMPI_QUEUE_BUILD"
    tmp=$(mktemp -d -p "$OMPI_QUEUE_BUILD" netns.XXXXXX)
else
    tmp=$(mktemp -d)
fi
mpirun_pid=""
shown=0

show_output() {   # mpirun's own output, then each rank's; once
    local f
    { [ "$shown" = 0 ] && [ -f "$tmp/run.log" ]; } || return 0
    shown=1
    cat "$tmp/run.log"
    for f in $(find "$tmp/out" -name 'rank.*' -type f 2> /dev/null | sort -V); do
        echo "netns: --- ${f##*/} ---"
        cat "$f"
    done
}

cleanup() {
    local rc=$?
    set +e
    # the Slurm daemons and steps first: what they start goes with them
    [ -n "$slurm_mode" ] && [ -n "${SLURM_CONF:-}" ] && slurm_cluster_stop "$rc"
    if [ -n "$mpirun_pid" ]; then
        # mpirun ends its daemons when told: give it a moment
        kill "$mpirun_pid" 2> /dev/null
        for _ in $(seq 50); do
            kill -0 "$mpirun_pid" 2> /dev/null || break
            sleep 0.1
        done
    fi
    show_output
    for n in "${made[@]}"; do
        # the daemon of the second node is daemonized: end what is left in
        # the namespace (after a failure) before removing it
        pids=$(ip netns pids "$n" 2> /dev/null)
        # shellcheck disable=SC2086
        [ -n "$pids" ] && kill -KILL $pids 2> /dev/null
        ip netns del "$n"
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP

# a machine that refuses namespaces or veth pairs cannot run this
for n in "${nodes[@]}"; do
    ip netns add "$n" 2> "$tmp/err" || skip "ip netns add failed: $(head -n 1 "$tmp/err")"
    made+=("$n")
done
# the veth pair is made inside the two namespaces: nothing is added to the
# machine's own network namespace
ip link add name "$IF" netns "${nodes[0]}" type veth peer name "$IF" netns "${nodes[1]}" \
    2> "$tmp/err" || skip "no veth pair: $(head -n 1 "$tmp/err")"
printf '127.0.0.1 localhost\n' > "$tmp/hosts"
: > "$tmp/hostfile"
for i in 0 1; do
    ip -n "${nodes[$i]}" addr add "$NET.$((i + 1))/24" dev "$IF"
    ip -n "${nodes[$i]}" link set lo up
    ip -n "${nodes[$i]}" link set "$IF" up
    printf '%s %s\n' "$NET.$((i + 1))" "${nodes[$i]}" >> "$tmp/hosts"
    printf '%s slots=%d\n' "${nodes[$i]}" "$ppn" >> "$tmp/hostfile"
done
# UCX takes only an interface that is running: wait for the carrier
for i in 0 1; do
    for _ in $(seq 50); do
        ip -n "${nodes[$i]}" -o link show "$IF" | grep -q 'state UP' && break
        sleep 0.1
    done
    ip -n "${nodes[$i]}" -o link show "$IF" | grep -q 'state UP' \
        || { echo "netns: $IF of ${nodes[$i]} did not come up"; exit 1; }
done
export QTEST_NETNS_HOSTS=$tmp/hosts
echo "netns: nodes ${nodes[0]} ($NET.1) and ${nodes[1]} ($NET.2), $ppn rank(s) each"

mkdir "$tmp/out"
if [ -n "$slurm_mode" ]; then
    # a slurmd in each node, named as the node, the controller in the
    # first; commands of the cluster run in the first node
    source "$here/../slurm/cluster.sh"
    slurm_exec() { "$here/enter-node.sh" "${nodes[0]}" "$(printf '%q ' "$@")"; }
    slurm_cluster_setup "$OMPI_QUEUE_BUILD/slurm/netns.$$"
    slurm_munge_up
    slurm_cluster_conf "${nodes[0]}" "$NET.1" "${nodes[0]}=$NET.1" "${nodes[1]}=$NET.2"
    slurm_exec slurmctld -D -i -f "$SLURM_CONF" > "$slurm_dir/log/slurmctld.out" 2>&1 &
    disown
    # slurmd reads the cgroup hierarchy, which the node's fresh /sys lacks:
    # the machine's (v1) controllers, mounted in the node's namespace only;
    # and each node its own /tmp, as Slurm's PMIx plugin and PRRTE expect
    # of nodes (their directories there are named by the job, not the node)
    node_mounts='mount -t tmpfs node_tmp /tmp || exit 1
        mount -t tmpfs cgroup_root /sys/fs/cgroup || exit 1
        for c in $(awk '"'"'!/^#/ && $4 == 1 { print $1 }'"'"' /proc/cgroups); do
            mkdir -p /sys/fs/cgroup/$c && mount -t cgroup -o $c cgroup /sys/fs/cgroup/$c || exit 1
        done
        mkdir -p /sys/fs/cgroup/systemd
        mount -t cgroup -o none,name=systemd cgroup /sys/fs/cgroup/systemd || exit 1'
    for i in 0 1; do
        "$here/enter-node.sh" "${nodes[$i]}" "$node_mounts
            exec $(printf '%q ' slurmd -D -f "$SLURM_CONF" -N "${nodes[$i]}")" \
            > "$slurm_dir/log/slurmd-$i.out" 2>&1 &
        disown   # slurm_cluster_stop ends it: no notice of its signal
    done
    slurm_cluster_wait "${nodes[@]}"
    echo "netns: Slurm on both nodes ($slurm_mode)"
fi
args=(--hostfile "$tmp/hostfile" -n "$np" --map-by slot --bind-to none
      --prtemca plm_ssh_agent "$here/enter-node.sh" --prtemca plm_ssh_no_tree_spawn 1
      --prtemca oob_tcp_if_include "$IF" --mca btl_tcp_if_include "$IF"
      -x UCX_NET_DEVICES="$IF" -x FI_TCP_IFACE="$IF" -x FI_SOCKETS_IFACE="$IF"
      -x QTEST_NETNS_OUT="$tmp/out")
check=${QTEST_NETNS_CHANNELS:-0}
if [ "$check" != "0" ]; then
    args+=(--mca match_base_verbose 60 -x UCX_LOG_LEVEL=info)
fi
# shellcheck disable=SC2016
wrap=(/bin/bash -c 'exec "$0" "$@" > "$QTEST_NETNS_OUT/rank.$PMIX_RANK.out" 2> "$QTEST_NETNS_OUT/rank.$PMIX_RANK.err"')
cmd=$(printf '%q ' "$MPIRUN" "${args[@]}" "${mpirun_args[@]}" "${wrap[@]}" "${program[@]}")
slurm_job=(-N 2 -n "$np" --ntasks-per-node="$ppn")
case "$slurm_mode" in
"") ;;
srun)
    # no mpirun: its arguments reach the ranks as variables
    senv=(QTEST_NETNS_OUT="$tmp/out" UCX_NET_DEVICES="$IF" FI_TCP_IFACE="$IF" FI_SOCKETS_IFACE="$IF"
          OMPI_MCA_btl_tcp_if_include="$IF")
    [ "$check" != "0" ] && senv+=(OMPI_MCA_match_base_verbose=60 UCX_LOG_LEVEL=info)
    slurm_args_to_env "${mpirun_args[@]}" || exit 2
    senv+=("${slurm_env[@]}")
    cmd=$(printf '%q ' env "${senv[@]}" srun --mpi=pmix "${slurm_job[@]}" -m block \
        --kill-on-bad-exit=1 "${wrap[@]}" "${program[@]}")
    ;;
salloc | sbatch)
    # mpirun in the allocation: PRRTE reads it and starts its daemons with srun
    margs=(-n "$np" --map-by slot --bind-to none --prtemca oob_tcp_if_include "$IF"
           --mca btl_tcp_if_include "$IF" -x UCX_NET_DEVICES="$IF" -x FI_TCP_IFACE="$IF"
           -x FI_SOCKETS_IFACE="$IF" -x QTEST_NETNS_OUT="$tmp/out")
    [ "$check" != "0" ] && margs+=(--mca match_base_verbose 60 -x UCX_LOG_LEVEL=info)
    mcmd=$(printf '%q ' "$MPIRUN" "${margs[@]}" "${mpirun_args[@]}" "${wrap[@]}" "${program[@]}")
    if [ "$slurm_mode" = salloc ]; then
        cmd="salloc $(printf '%q ' "${slurm_job[@]}") $mcmd"
    else
        printf '#!/bin/bash\nexec %s\n' "$mcmd" > "$tmp/job.sh"
        cmd="sbatch --wait --quiet $(printf '%q ' "${slurm_job[@]}") -o $(printf '%q' "$tmp/job.out") $(printf '%q' "$tmp/job.sh"); rc=\$?; echo 'netns: --- the job output file ---'; cat $(printf '%q' "$tmp/job.out") || rc=1; exit \$rc"
    fi
    ;;
*)
    echo "netns: --slurm $slurm_mode: srun, salloc or sbatch" >&2
    exit 2
    ;;
esac
timeout -k 10 $((${QTEST_TIMEOUT:-90} + 30)) "$here/enter-node.sh" "${nodes[0]}" "$cmd" \
    > "$tmp/run.log" 2>&1 < /dev/null &
mpirun_pid=$!
rc=0
wait "$mpirun_pid" || rc=$?
mpirun_pid=""
show_output
if [ "$rc" != 0 ]; then
    [ "$rc" = 124 ] && echo "netns: mpirun did not finish within $((${QTEST_TIMEOUT:-90} + 30))s"
    exit "$rc"
fi
if [ "$slurm_mode" = srun ] && grep -qs 'A requested component was not found' "$tmp"/out/rank.*; then
    echo "netns: FAIL: the ranks printed PMIx's \"component was not found\" banner"
    exit 1
fi
[ "$check" != "0" ] || exit 0

# every channel line of a rank's file is whole (one writer): the receiver
# logs it, so its rank is the file's, and its hostname is that of the node
# the rank was placed on
for ((r = 0; r < np; ++r)); do
    [ -f "$tmp/out/rank.$r.err" ] || { echo "netns: FAIL: no output of rank $r"; exit 1; }
done
awk -v ppn="$ppn" -v expect="$check" -v iface="$IF" -v node0="${nodes[0]}" -v node1="${nodes[1]}" '
    FNR == 1 { rank = FILENAME; sub(/.*rank\./, "", rank); sub(/\..*/, "", rank) }
    /match:base: channel .* for MPI_COMM_WORLD:/ {
        if ($0 !~ /^\[[a-z0-9]+:[0-9]+\] match:base: channel (sm|ucx|ofi|pml) for MPI_COMM_WORLD:[0-9]+ -> MPI_COMM_WORLD:[0-9]+ tag -?[0-9]+ \([0-9]+ -> [0-9]+ bytes\)$/) {
            bad = bad "\n  rank " rank ": unexpected line: " $0
            next
        }
        host = $1; gsub(/^\[|:.*$/, "", host)
        chan = $4; src = $6; dst = $8
        sub(/.*:/, "", src); sub(/.*:/, "", dst)
        if (dst != rank || host != (int(dst / ppn) ? node1 : node0)) {
            bad = bad "\n  rank " rank " (" host "): receiver is not this rank on its node: " $0
        }
        if (src == dst) { next }
        if (int(src / ppn) != int(dst / ppn)) {
            across[chan]++
            if ("sm" == chan) { bad = bad "\n  across nodes on sm: " $0 }
        } else {
            within[chan]++
            if ("ucx" == chan || "ofi" == chan) { bad = bad "\n  on one node on " chan ": " $0 }
        }
    }
    /match:ucx: .* half: .* into the peer.s slot/ {
        if ($0 ~ /stores into/) { stores++ } else { puts++ }
    }
    /match:ucx: UCX emulates puts to .* under ULFM/ { declined++ }
    /match:ofi: request .*: not for this pair: ULFM is on/ { ofi_declined++ }
    /UCX  INFO +ep_cfg/ && $0 ~ ("rma[_a-z]*\\([^)]*tcp/" iface) { rma_tcp++ }
    END {
        printf "netns: matched pairs across nodes: ucx %d, ofi %d, pml %d, sm %d; on one node: sm %d, ucx %d, ofi %d, pml %d\n",
               across["ucx"], across["ofi"], across["pml"], across["sm"], within["sm"], within["ucx"],
               within["ofi"], within["pml"]
        printf "netns: ucx channel halves: puts %d, stores into mapped memory %d; UCX endpoints with RMA over tcp/%s: %d\n",
               puts, stores, iface, rma_tcp
        if ("declined" == expect) {
            if (0 < across["ucx"]) { bad = bad "\n  a pair across nodes got the ucx channel" }
            if (0 == across["pml"]) { bad = bad "\n  no pair across nodes got the pml channel" }
            if (0 == declined) { bad = bad "\n  the ucx channel never said it declined" }
        } else if ("ofideclined" == expect) {
            if (0 < across["ucx"] || 0 < across["ofi"]) { bad = bad "\n  a pair across nodes got the ucx or ofi channel" }
            if (0 == across["pml"]) { bad = bad "\n  no pair across nodes got the pml channel" }
            if (0 == ofi_declined) { bad = bad "\n  the ofi channel never said it declined" }
        } else if ("ofi" == expect) {
            if (0 < across["ucx"]) { bad = bad "\n  a pair across nodes got the ucx channel" }
            if (0 == across["ofi"]) { bad = bad "\n  no pair across nodes got the ofi channel" }
        } else if (0 == across["ucx"]) { bad = bad "\n  no pair across nodes got the ucx channel" }
        if (1 < ppn && 0 == within["sm"]) { bad = bad "\n  no pair on one node got the sm channel" }
        if (0 < stores) { bad = bad "\n  the ucx channel mapped the peer memory: UCX saw shared memory" }
        if ("ofi" != expect && "ofideclined" != expect && 0 == rma_tcp) { bad = bad "\n  no UCX endpoint with RMA over tcp/" iface }
        if ("" != bad) { print "netns: FAIL: channel choice:" bad; exit 1 }
        print "netns: channel choice as expected"
    }' "$tmp"/out/rank.*
