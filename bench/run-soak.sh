#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Soak (bench/soak.c): resident memory and open descriptors of a long
# ping-pong stay flat after a warm-up, on each match channel (sm, ucx, pml)
# over each PML (ob1 with btl self,sm; UCX), for the enqueued matched pair
# (10^6 cycles) and for graph executions (MPIX_Iexecute, MPIX_Execute_init)
# and stream tokens (10^5 each); then the same at reduced counts under
# valgrind's memcheck, which must find no definite leak whose stack runs
# through the fork's code (ompi/mca/match, ompi/mca/queue,
# ompi/mpiext/graphs, the queue and match bindings of ompi/mpi/c), nor any
# memory error there.
# Definite leaks elsewhere (Open MPI's, PMIx's, UCX's own at finalize) are
# listed by origin as stock.  Exits non-zero when a mode grows or the fork's
# code leaks or errs.  Not part of `make check`: the whole run takes minutes.
#
# Usage: bench/run-soak.sh [all|soak|valgrind] (default all)
# Environment:
#   SOAK_TRANSPORTS  PMLs, default "ob1 ucx"
#   SOAK_CHANNELS    match channels, default "sm ucx pml"
#   SOAK_MODES       default "queue iexecute execute_init stream"
#   SOAK_QUEUE_CYCLES (1000000), SOAK_CYCLES (100000: the other modes),
#   SOAK_VG_CYCLES (2000: every mode under valgrind)
#   SOAK_SLACK_KB    growth still called flat (bench/soak.c; default 256)
#   SOAK_VG_DIR      where the valgrind logs go (default: a new temporary
#                    directory, kept and named at the end)

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_build soak

which=${1:-all}
transports=${SOAK_TRANSPORTS:-ob1 ucx}
channels=${SOAK_CHANNELS:-sm ucx pml}
modes=${SOAK_MODES:-queue iexecute execute_init stream}
queue_cycles=${SOAK_QUEUE_CYCLES:-1000000}
cycles=${SOAK_CYCLES:-100000}
vg_cycles=${SOAK_VG_CYCLES:-2000}
exe=$BENCH_BIN/soak

# the channel lines of tests/tests.list: sm is the framework's choice on one
# node, ucx leaves sm out; neither may fall back to the pml channel
declare -A CHANNEL_ENV=(
    [sm]="OMPI_MCA_match_base_fallback=0"
    [ucx]="OMPI_MCA_match=ucx,pml OMPI_MCA_match_base_fallback=0"
    [pml]="OMPI_MCA_match=pml"
)

failed=0

# soak_mpirun TRANSPORT CHANNEL SECONDS PROGRAM...: 2 ranks
soak_mpirun() {
    local tr=$1 chan=$2 secs=$3
    shift 3
    # shellcheck disable=SC2086
    env ${CHANNEL_ENV[$chan]} timeout "$secs" "$PREFIX/bin/mpirun" --oversubscribe -n 2 \
        ${TRANSPORT[$tr]} "$@" < /dev/null
}

if [ "$which" = all ] || [ "$which" = soak ]; then
    echo "== soak: RSS and open fds after a warm-up of 10 % (2 ranks, 8-byte ping-pong)"
    for tr in $transports; do
        for chan in $channels; do
            for mode in $modes; do
                n=$cycles
                [ "$mode" = queue ] && n=$queue_cycles
                out=$(soak_mpirun "$tr" "$chan" 900 "$exe" "$mode" "$n" 2>&1) || true
                printf '%s\n' "$out" | sed -n "s|^soak |$tr/$chan: soak |p"
                if ! printf '%s\n' "$out" | grep -q "^soak $mode: flat$" \
                   || printf '%s\n' "$out" | grep -q "WRONG PAYLOAD"; then
                    echo "$tr/$chan: soak $mode: FAILED (grows, wrong payload or no verdict):"
                    printf '%s\n' "$out" | grep -v "^soak " | tail -n 20
                    failed=1
                fi
            done
        done
    done
fi

# the functions of the fork's code, read from its sources: a frame of
# libmpi with one of these names is ours
fork_functions() {
    {
        find "$OMPI_QUEUE_ROOT/ompi/mca/match" "$OMPI_QUEUE_ROOT/ompi/mca/queue" \
             "$OMPI_QUEUE_ROOT/ompi/mpiext/graphs" -name '*.[ch]'
        ls "$OMPI_QUEUE_ROOT"/ompi/mpi/c/*queue*.c "$OMPI_QUEUE_ROOT"/ompi/mpi/c/*match*.c \
           "$OMPI_QUEUE_ROOT"/ompi/mpi/c/*enqueue*.c
    } | xargs grep -hoE '^[A-Za-z_][A-Za-z0-9_ ]*[ *]+[A-Za-z_][A-Za-z0-9_]*\(' \
      | grep -vE '^(return|else|if|while|for|switch|typedef) ' \
      | sed -E 's/.*[ *]([A-Za-z_][A-Za-z0-9_]*)\($/\1/' | sort -u
}

# vg_summary FUNCS LOG LABEL: one line of definite losses (all, ours,
# stock) and memory errors (all, ours); the stacks of ours in full; every
# stock loss record's origin (its first three frames past the allocator) on
# lines "stock<TAB>bytes<TAB>origin"
vg_summary() {
    awk -v label="$3" '
        FNR == NR { ours[$1] = 1; next }
        { sub(/^==[0-9]+== ?/, "") }
        /^(Invalid (read|write|free)|Mismatched free|Conditional jump|Use of uninitialised|Syscall param|Source and destination overlap)/ {
            inrec = 2; n = 0; mine = 0; ++errors; head = $0; next
        }
        /definitely lost in loss record/ {
            inrec = 1; n = 0; mine = 0; origin = ""; depth = 0
            # direct bytes, as in the leak summary (indirect ones hang on them)
            b = $1
            if (match($0, /\([0-9,]+ direct/)) {
                b = substr($0, RSTART + 1, RLENGTH - 8)
            }
            gsub(/,/, "", b); bytes = b + 0; head = $0; next
        }
        inrec == 2 && !/^ *$/ {
            stack[++n] = $0
            name = $0; sub(/^ *(at|by) 0x[0-9A-Fa-f]+: /, "", name); sub(/ .*/, "", name)
            if ($0 ~ /libmpi\.so/ && (name in ours || name ~ /^P?MPIX_/)) {
                mine = 1
            }
            next
        }
        inrec && /^ *(at|by) 0x/ {
            stack[++n] = $0
            name = $0; sub(/^ *(at|by) 0x[0-9A-Fa-f]+: /, "", name); sub(/ .*/, "", name)
            if ($0 ~ /libmpi\.so/ && (name in ours || name ~ /^P?MPIX_/)) {
                mine = 1
            }
            if (name !~ /^(malloc|calloc|realloc|strdup|strndup|__vasprintf_internal|vasprintf|asprintf|posix_memalign|opal_vasprintf|opal_asprintf|\?\?\?)$/ && depth < 3) {
                origin = origin (depth ? " < " : "") name; ++depth
            }
            next
        }
        inrec == 2 {
            inrec = 0
            if (mine) {
                ++ours_errors
                print label ": OURS " head
                for (i = 1; i <= n; ++i) {
                    print label ":   " stack[i]
                }
            }
        }
        inrec {
            inrec = 0
            if (mine) {
                ours_bytes += bytes; ++ours_recs
                print label ": OURS " head
                for (i = 1; i <= n; ++i) {
                    print label ":   " stack[i]
                }
            } else {
                stock_bytes += bytes
                printf "stock\t%d\t%s\n", bytes, origin
            }
        }
        /definitely lost:/ { total = $3 " " $4 " in " $6 " " $7 }
        END {
            printf "%s: definitely lost %s; ours %d bytes in %d records; stock %d bytes; " \
                   "memory errors %d, ours %d\n", label, (total == "" ? "0 bytes" : total),
                   ours_bytes, ours_recs, stock_bytes, errors, ours_errors
        }' "$1" "$2"
}

if [ "$which" = all ] || [ "$which" = valgrind ]; then
    command -v valgrind > /dev/null || { echo "valgrind not installed"; exit 1; }
    vgdir=${SOAK_VG_DIR:-$(mktemp -d)}
    mkdir -p "$vgdir"
    fork_functions > "$vgdir/fork-functions.txt"
    supp=$PREFIX/share/openmpi/openmpi-valgrind.supp
    echo "== valgrind (memcheck, $vg_cycles cycles a mode, definite leaks at exit)"
    : > "$vgdir/stock.txt"
    for tr in $transports; do
        for chan in $channels; do
            for mode in $modes; do
                base=$vgdir/$tr.$chan.$mode
                soak_mpirun "$tr" "$chan" 900 valgrind --leak-check=full \
                    --errors-for-leak-kinds=definite --num-callers=40 \
                    --suppressions="$supp" --log-file="$base.%q{OMPI_COMM_WORLD_RANK}.log" \
                    "$exe" "$mode" "$vg_cycles" > "$base.out" 2>&1 || true
                for r in 0 1; do
                    log=$base.$r.log
                    if [ ! -s "$log" ] || ! grep -q "LEAK SUMMARY\|All heap blocks were freed" "$log"; then
                        echo "$tr/$chan $mode rank $r: no leak summary (see $base.out)"
                        failed=1
                        continue
                    fi
                    vg_summary "$vgdir/fork-functions.txt" "$log" "$tr/$chan $mode rank $r" \
                        > "$base.$r.sum"
                    grep -v $'^stock\t' "$base.$r.sum"
                    grep $'^stock\t' "$base.$r.sum" >> "$vgdir/stock.txt" || true
                    if grep -q ": OURS " "$base.$r.sum"; then
                        failed=1
                    fi
                done
            done
        done
    done
    echo "== stock definite losses by origin (allocating frames, innermost first), bytes over all runs:"
    awk -F '\t' '{ b[$3] += $2; c[$3]++ } END { for (o in b) printf "%8d  %4d  %s\n", b[o], c[o], o }' \
        "$vgdir/stock.txt" | sort -rn
    echo "valgrind logs: $vgdir"
fi

exit $failed
