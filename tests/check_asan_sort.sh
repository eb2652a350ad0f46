#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# make check-asan's sorting of sanitizer reports (tests/asan/sort-reports.py),
# on reports written here in the sanitizers' formats: one in a file of ours
# (the match framework), one in a patched stock file, one in an unpatched
# stock file, one outside Open MPI, the same stock one twice, one in a
# stock header inlined into a patched file, and one in a test's log that
# names a file of ours without its folder.  Ours and
# patched must count as ours, the others as stock's, and the run must fail.
# Then ThreadSanitizer's reports, with the rules of make check-tsan.

set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tree=$tmp/build/openmpi-5.0.7
mkdir -p "$tmp/reports"
echo "ompi/mca/part/persist/part_persist.h" > "$tmp/patched"

cat > "$tmp/reports/asan.queue_ops.101" <<REPORT
=================================================================
==101==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x7f0 bp 0x7f1 sp 0x7f2
READ of size 8 at 0x602000000010 thread T0
    #0 0x7f0 in mca_match_base_ft_check $tree/ompi/mca/match/base/match_base_ft.c:42
    #1 0x7f3 in ompi_request_default_wait $tree/ompi/request/req_wait.c:40
    #2 0x7f4 in main $root/tests/queue_ops.c:10
REPORT
cat > "$tmp/reports/ubsan.part_correct.102" <<REPORT
$tree/ompi/mca/part/persist/part_persist.h:300:17: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'
    #0 0x7f5 in mca_part_persist_progress $tree/ompi/mca/part/persist/part_persist.h:300
REPORT
cat > "$tmp/reports/ubsan.match_p2p.103" <<REPORT
$tree/opal/datatype/opal_convertor.c:88:5: runtime error: load of misaligned address 0x0001 for type 'long', which requires 8 byte alignment
    #0 0x7f6 in opal_convertor_pack $tree/opal/datatype/opal_convertor.c:88
$tree/opal/datatype/opal_convertor.c:88:5: runtime error: load of misaligned address 0x0001 for type 'long', which requires 8 byte alignment
    #0 0x7f6 in opal_convertor_pack $tree/opal/datatype/opal_convertor.c:88
REPORT
# a stock header's inline function in a patched file, the header named as
# the compiler found it from the file's folder (../../..)
mkdir -p "$tree/ompi/mca/pml/ob1"
touch "$tree/ompi/mca/pml/ob1/pml_ob1_hdr.h"
cat > "$tmp/reports/ubsan.ft_ring.105" <<REPORT
../../../../ompi/mca/pml/ob1/pml_ob1_hdr.h:421:5: runtime error: null pointer passed as argument 2, which is declared to never be null
    #0 0x7fb in mca_pml_ob1_rdma_hdr_prepare ../../../../ompi/mca/pml/ob1/pml_ob1_hdr.h:421
    #1 0x7fc in mca_pml_ob1_recv_request_put_frag $tree/ompi/mca/part/persist/part_persist.h:486
REPORT
cat > "$tmp/reports/asan.unchanged_p2p.104" <<REPORT
==104==ERROR: AddressSanitizer: stack-buffer-overflow on address 0x7ffd at pc 0x7f7 bp 0x7f8 sp 0x7f9
    #0 0x7f7 in uct_tcp_iface_progress (/lib/x86_64-linux-gnu/libuct.so.0+0x242fd)
    #1 0x7fa in ucp_worker_progress (/lib/x86_64-linux-gnu/libucp.so.0+0x1234)
REPORT

# under mpirun a report reaches the test's log, the file named as compiled
mkdir -p "$tmp/logs"
printf 'OK: part 1\n\0graphs_vars.c:159:22: runtime error: load of misaligned address 0x7f01 for type %s\n' \
    "'const int32_t', which requires 4 byte alignment" > "$tmp/logs/graphs_cuda.ob1.2.emulated.log"

out=$(python3 "$root/tests/asan/sort-reports.py" --root "$root" --tree "$tree" \
      --patched "$tmp/patched" "$tmp/reports" "$tmp/logs")
rc=$?
echo "$out"
fail=0
expect() {   # pattern what
    grep -qE "$1" <<< "$out" || { echo "FAIL: $2"; fail=1; }
}
expect '^sanitizer report, ours: heap-use-after-free at ompi/mca/match/base/match_base_ft.c:42 \(mca_match_base_ft_check\) \(1 time\(s\), first in queue_ops\)$' \
    "a report in the match framework counts as ours"
expect '^sanitizer report, ours: signed integer overflow.* at ompi/mca/part/persist/part_persist.h:300 ' \
    "a report in a file patches/ touches counts as ours"
expect '^sanitizer report, stock: load of misaligned address.* at opal/datatype/opal_convertor.c:88 \(2 time\(s\)' \
    "a report in an unpatched stock file counts as stock's, once for both"
expect '^sanitizer report, stock: stack-buffer-overflow at outside Open MPI ' \
    "a report outside Open MPI counts as stock's"
expect '^sanitizer report, ours: load of misaligned address 0x\.\.\. .* at ompi/mpiext/graphs/c/graphs_vars.c:159 \(1 time\(s\), first in graphs_cuda.ob1.2.emulated.log\)$' \
    "a report in a test log, named without its folder, found in a file of ours"
expect '^sanitizer report, stock: null pointer passed as argument 2.* at ompi/mca/pml/ob1/pml_ob1_hdr.h:421 ' \
    "a report in a stock header named with ../ counts as stock's, though it is inlined into a file of ours"
expect '^sanitizer reports: 3 in our code, 3 in stock code$' "the summary"
[ "$rc" = 1 ] || { echo "FAIL: reports in our code must fail the run (exit $rc)"; fail=1; }

# ThreadSanitizer's reports (make check-tsan): a place for each access, the
# lines of a patched file that no patch changed are stock's (--pristine, the
# release's copy of the file), and a race on a free-list item with one
# access in stock code is stock's
mkdir -p "$tmp/pristine/openmpi-5.0.7/ompi/mca/pml/ob1" "$tmp/treports" "$tree/opal/class"
printf 'one\ntwo\nfour\n' > "$tmp/pristine/openmpi-5.0.7/ompi/mca/pml/ob1/pml_ob1_irecv.c"
printf 'one\ntwo\nthree, ours\nfour\n' > "$tree/ompi/mca/pml/ob1/pml_ob1_irecv.c"
touch "$tree/opal/class/opal_lifo.h"
echo "ompi/mca/pml/ob1/pml_ob1_irecv.c" >> "$tmp/patched"
tar -C "$tmp/pristine" -cJf "$tmp/pristine.tar.xz" openmpi-5.0.7
race() {   # first-access-frame second-access-frame [allocation-frame [sleep-frame]]
    echo "=================="
    echo "WARNING: ThreadSanitizer: data race (pid=201)"
    echo "  Write of size 8 at 0x7b04 by thread T1:"
    echo "    #0 $1 (libmpi.so.40+0x1)"
    echo ""
    echo "  Previous read of size 8 at 0x7b04 by main thread:"
    echo "    #0 $2 (libmpi.so.40+0x2)"
    echo ""
    if [ -n "${4:-}" ]; then
        # a stack that is no access: the runtime's guess at an order
        echo "  As if synchronized via sleep:"
        echo "    #0 nanosleep tsan_interceptors_posix.cpp:358 (libtsan.so+0x620f6)"
        echo "    #1 $4 (queue_threads+0x3115)"
        echo ""
    fi
    if [ -n "${3:-}" ]; then
        echo "  Location is heap block of size 64 at 0x7b00 allocated by thread T1:"
        echo "    #0 malloc tsan_interceptors_posix.cpp:647 (libtsan.so+0x3ebb8)"
        echo "    #1 $3 (libopen-pal.so.80+0x3)"
        echo ""
    fi
    echo "  Thread T1 (tid=202, running) created by main thread at:"
    echo "    #0 pthread_create tsan_interceptors_posix.cpp:1001 (libtsan.so+0x5e686)"
    echo "    #1 main $tree/ompi/mca/match/base/match_base_ft.c:7 (queue_threads+0x15bf)"
    echo ""
    echo "SUMMARY: ThreadSanitizer: data race"
    echo "=================="
}
{
    race "mca_match_base_ft_check $tree/ompi/mca/match/base/match_base_ft.c:42" \
         "opal_lifo_pop_atomic $tree/opal/class/opal_lifo.h:150"
    race "mca_pml_ob1_irecv $tree/ompi/mca/pml/ob1/pml_ob1_irecv.c:2" \
         "opal_lifo_pop_atomic $tree/opal/class/opal_lifo.h:150"
    race "mca_pml_ob1_irecv $tree/ompi/mca/pml/ob1/pml_ob1_irecv.c:3" \
         "opal_lifo_pop_atomic $tree/opal/class/opal_lifo.h:150"
    race "mca_pml_ob1_irecv $tree/ompi/mca/pml/ob1/pml_ob1_irecv.c:2" \
         "mca_match_base_ft_check $tree/ompi/mca/match/base/match_base_ft.c:50" \
         "opal_free_list_grow_st <null>"
    race "mca_match_base_ft_check $tree/ompi/mca/match/base/match_base_ft.c:60" \
         "mca_match_base_ft_check $tree/ompi/mca/match/base/match_base_ft.c:61" \
         "opal_free_list_grow_st <null>"
    race "opal_lifo_pop_atomic $tree/opal/class/opal_lifo.h:160" \
         "opal_lifo_pop_atomic $tree/opal/class/opal_lifo.h:161" "" \
         "mca_match_base_ft_check $tree/ompi/mca/match/base/match_base_ft.c:70"
} > "$tmp/treports/tsan.queue_threads.201"
out=$(python3 "$root/tests/asan/sort-reports.py" --root "$root" --tree "$tree" \
      --patched "$tmp/patched" --pristine "$tmp/pristine.tar.xz" "$tmp/treports")
rc=$?
echo "$out"
expect '^sanitizer report, ours: data race at ompi/mca/match/base/match_base_ft.c:42 \(mca_match_base_ft_check\) and opal/class/opal_lifo.h:150 ' \
    "a race of ours with stock code counts as ours"
expect '^sanitizer report, stock: data race at ompi/mca/pml/ob1/pml_ob1_irecv.c:2 ' \
    "a race on a line of a patched file that no patch changed counts as stock's"
expect '^sanitizer report, ours: data race at ompi/mca/pml/ob1/pml_ob1_irecv.c:3 ' \
    "a race on a line a patch added counts as ours"
expect '^sanitizer report, stock: data race at .*match_base_ft.c:50 \(mca_match_base_ft_check\) \(a free-list item\) ' \
    "a race on a free-list item with stock code counts as stock's"
expect '^sanitizer report, ours: data race at ompi/mca/match/base/match_base_ft.c:60 .* and ompi/mca/match/base/match_base_ft.c:61 ' \
    "a race on a free-list item between two accesses of ours counts as ours"
expect '^sanitizer report, stock: data race at opal/class/opal_lifo.h:160 \(opal_lifo_pop_atomic\) and opal/class/opal_lifo.h:161 \(opal_lifo_pop_atomic\) \(' \
    "the stack of an order guessed from a sleep is no access: a race between stock accesses is stock's"
expect '^sanitizer reports: 3 in our code, 3 in stock code$' "the summary of the ThreadSanitizer reports"
[ "$rc" = 1 ] || { echo "FAIL: ThreadSanitizer reports in our code must fail the run (exit $rc)"; fail=1; }
[ "$fail" = 0 ] && echo "OK: sanitizer reports sorted"
exit "$fail"
