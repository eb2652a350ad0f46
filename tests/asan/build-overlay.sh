#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The sanitizer passes need our code instrumented, and a whole instrumented
# build (make check-asan) takes longer than CI has.  This copies the built
# tree (build/openmpi-5.0.7) to build/KIND-overlay/ and recompiles there
# only the C files that are ours, the overlay and every file patches/
# touches: with AddressSanitizer and UndefinedBehaviorSanitizer for make
# check's pass (asan), with ThreadSanitizer for make check-tsan (tsan).
# Open MPI's libraries are relinked in that copy; nothing is installed.
# The ranks of a pass load them through LD_LIBRARY_PATH, with the
# sanitizer's runtime preloaded (tests/run-tests.sh, stage 2), and run the
# same test programs and mpirun as the rest of make check.
#
# Usage: tests/asan/build-overlay.sh [asan|tsan]  (after contrib/queue/build.sh)
# The copy is kept while the built tree and our sources are unchanged.

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../contrib/queue/common.sh"

kind=${1:-asan}
case "$kind" in
asan) san="-fsanitize=address,undefined -fno-omit-frame-pointer"; init=__asan_init ;;
# ThreadSanitizer does not model fences, and OPAL's atomics pair relaxed
# or acquire-only operations with them (opal_atomic_wmb before a swap, for
# one): the pass compiles every atomic operation sequentially consistent,
# which is what the fences beside them make them, so that what it reports
# is plain accesses that no atomic operation orders (docs/sanitizers.md)
tsan) san="-fsanitize=thread -Wno-tsan"
      for o in RELAXED CONSUME ACQUIRE RELEASE ACQ_REL; do
          san="$san -D__ATOMIC_$o=__ATOMIC_SEQ_CST"
      done
      init=__tsan_init ;;
*) die "usage: $0 [asan|tsan]" ;;
esac
tree=$OMPI_QUEUE_SRC
copy_top=$OMPI_QUEUE_BUILD/$kind-overlay
copy=$copy_top/$(basename "$tree")
stamp=$copy_top/.stamp

[ -f "$tree/ompi/.libs/libmpi.so" ] || die "no built tree in $tree: run contrib/queue/build.sh first"

# our C files: the overlay and the patched files, as build.sh recorded them
mapfile -t ours < <(cat "$OMPI_QUEUE_BUILD/.overlay-files" "$OMPI_QUEUE_BUILD/.patched-files" \
                    | grep -E '\.c$' | sort -u)

# the copy is current when the flags, this script, the built library and
# our files are the ones it was made from
want=$( (echo "$san"; cat "${BASH_SOURCE[0]}";
         stat -L -c '%n %Y' "$tree/ompi/.libs/libmpi.so" "$tree/opal/.libs/libopen-pal.so";
         cd "$tree" && cat "${ours[@]}") | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -f "$copy/ompi/.libs/libmpi.so" ]; then
    log "instrumented overlay is current ($copy)"
    exit 0
fi

log "instrumented overlay: copying $tree"
t0=$SECONDS
rm -rf "$copy_top"
mkdir -p "$copy_top"
# cp -a keeps the times: make in the copy rebuilds only what is touched below
cp -a "$tree" "$copy_top/"
if [ "$kind" = tsan ]; then
    # the runtime must see every synchronization: a hand-off through stock
    # code it does not see (ob1's matching, btl/sm's FIFOs, the free lists)
    # shows as a race between the accesses around it.  All of Open MPI's
    # own C files are rebuilt (not PMIx, PRRTE or the other 3rd-party code,
    # whose threads do not touch ours).
    mapfile -t ours < <(cd "$copy" && find ompi opal -name '*.c' | sort)
fi
(cd "$copy" && touch "${ours[@]}")
if [ "$kind" = tsan ]; then
    # The edits below model synchronization the runtime cannot see; every C
    # file of the copy is rebuilt (above), so they need not keep the files'
    # times.
    # Upstream's REQUEST_COMPLETE is a plain load, which MPI_Wait and the
    # like pair with fences that the runtime does not model: every request
    # the program waits for, then starts or frees again, would show as a
    # race between the thread that completed it and the next use.  In this
    # copy only it is the acquire load that ompi_request_seen_complete is
    # (docs/sanitizers.md).
    req_h=$copy/ompi/request/request.h
    sed -i 's|^#define REQUEST_COMPLETE(req) *(REQUEST_COMPLETED == (req)->req_complete)$|#define REQUEST_COMPLETE(req) (REQUEST_COMPLETED == __atomic_load_n(\&(req)->req_complete, __ATOMIC_ACQUIRE))|' "$req_h"
    grep -q '__atomic_load_n(&(req)->req_complete, __ATOMIC_ACQUIRE)' "$req_h" \
        || die "instrumented overlay: REQUEST_COMPLETE not found in $req_h"
    # ompi_request_complete reads the completion callback with plain loads;
    # match and the queues publish it with a release store before the start
    # whose completion calls it (match_request.c, queue_host.c), and that
    # start may complete in another thread through a PML whose hand-off the
    # runtime cannot see (across processes).  Here they are acquire loads.
    sed -i -e 's|^    if(NULL != request->req_complete_cb) {$|    if(NULL != __atomic_load_n(\&request->req_complete_cb, __ATOMIC_ACQUIRE)) {|' \
           -e 's|^        ompi_request_complete_fn_t fct = request->req_complete_cb;$|        ompi_request_complete_fn_t fct = __atomic_load_n(\&request->req_complete_cb, __ATOMIC_ACQUIRE);|' \
        "$req_h"
    [ "$(grep -c '__atomic_load_n(&request->req_complete_cb, __ATOMIC_ACQUIRE)' "$req_h")" = 3 ] \
        || die "instrumented overlay: ompi_request_complete's callback loads not found in $req_h"
    # The same for the wait_sync objects MPI_Wait sleeps on: the thread
    # that completes a request counts the sync down with an atomic, the
    # waiter reads the count and the "signaling" word with plain loads, and
    # the runtime saw no order between the completing thread's writes and
    # the waiter's reads after it.  Here they are the acquire loads (and
    # the release store) those reads pair with.
    ws_h=$copy/opal/mca/threads/wait_sync.h
    ws_c=$copy/opal/mca/threads/base/wait_sync.c
    for f in "$ws_h" "$ws_c"; do
        sed -i -e 's|\bsync->count \([<>]=\?\) 0|__atomic_load_n(\&sync->count, __ATOMIC_ACQUIRE) \1 0|g' \
               -e 's|while ((sync)->signaling)|while (__atomic_load_n(\&(sync)->signaling, __ATOMIC_ACQUIRE))|' \
               -e 's|(sync)->signaling = false;|__atomic_store_n(\&(sync)->signaling, false, __ATOMIC_RELEASE);|' \
            "$f"
    done
    [ "$(grep -c '__atomic_load_n(&sync->count, __ATOMIC_ACQUIRE)' "$ws_c")" = 4 ] \
        && grep -q '__atomic_load_n(&sync->count, __ATOMIC_ACQUIRE) > 0' "$ws_h" \
        && grep -q 'while (__atomic_load_n(&(sync)->signaling, __ATOMIC_ACQUIRE))' "$ws_h" \
        && [ "$(grep -c '__atomic_store_n(&(sync)->signaling, false, __ATOMIC_RELEASE);' "$ws_h")" = 2 ] \
        || die "instrumented overlay: the wait_sync reads not found in $ws_h and $ws_c"
    # opal_lifo, under every free list, pushes with a compare-and-swap of
    # the head's pointer and pops with a 128-bit one of the head's counter
    # and pointer, which starts 8 bytes lower.  The runtime keys its
    # synchronization by address, so it sees no order between a push and
    # the pop that takes the item: every field a request's init writes
    # would race with the request's last use before it went back.  Here a
    # push is a release and a pop an acquire of the list (coarser than the
    # hardware's order, which is per item: a race across two items of one
    # list is not seen).
    lifo_h=$copy/opal/class/opal_lifo.h
    mv "$lifo_h" "$copy_top/opal_lifo.h.orig"
    awk '/^#define OPAL_LIFO_H_HAS_BEEN_INCLUDED/ {
             print; print "void __tsan_acquire(void *addr);"; print "void __tsan_release(void *addr);"
             next }
         /^static inline/ { fn = "" }
         /^static inline opal_list_item_t \*opal_lifo_push_atomic\(/ { fn = "push" }
         /^static inline opal_list_item_t \*opal_lifo_pop_atomic\(/ { fn = "pop" }
         fn == "push" && /^\{$/ { print; print "    __tsan_release((void *) lifo);"; next }
         fn == "pop" && /return item;/ {
             match($0, /^ */); print substr($0, 1, RLENGTH) "__tsan_acquire((void *) lifo);" }
         { print }' "$copy_top/opal_lifo.h.orig" > "$lifo_h"
    [ "$(grep -c '__tsan_release((void \*) lifo);' "$lifo_h")" = 2 ] \
        && [ "$(grep -c '__tsan_acquire((void \*) lifo);' "$lifo_h")" = 3 ] \
        || die "instrumented overlay: opal_lifo's push and pop not found in $lifo_h"
    # btl/sm sends a fragment of this process's segment by writing its
    # header into the peer's FIFO (or fast box); the peer hands it back
    # through this process's FIFO marked complete, and whichever thread
    # polls then runs the fragment's completion (ob1 completes the send
    # request there).  What the sending thread wrote before the send is
    # ordered before that completion by the round trip through the other
    # process, which the runtime cannot see; without it a field a PML's
    # start writes races, in the runtime's eyes, with the completion's read
    # of it in the progress thread.  Here the send is a release of the
    # header and the completion an acquire of it, each added on the line
    # it annotates, so that the reports' line numbers stay the release's
    # (the sort compares them with the pristine tarball).
    fifo_h=$copy/opal/mca/btl/sm/btl_sm_fifo.h
    sm_c=$copy/opal/mca/btl/sm/btl_sm_component.c
    sed -i 's|^    fifo_value_t rhdr = virtual2relative((char \*) hdr);$|    { extern void __tsan_release(void *); __tsan_release((void *) hdr); } &|' "$fifo_h"
    sed -i 's|^        mca_btl_sm_frag_complete(hdr->frag);$|        { extern void __tsan_acquire(void *); __tsan_acquire((void *) hdr); } &|' "$sm_c"
    [ "$(grep -c '__tsan_release((void \*) hdr); } *fifo_value_t rhdr' "$fifo_h")" = 1 ] \
        && [ "$(grep -c '__tsan_acquire((void \*) hdr); } *mca_btl_sm_frag_complete' "$sm_c")" = 1 ] \
        || die "instrumented overlay: btl/sm's send and completion of a fragment not found in $fifo_h and $sm_c"
fi

# configure's CFLAGS (-O3 and the like) with -O1 -g and the sanitizers
# after them, so that the last -O wins
cflags=$(sed -n 's/^CFLAGS = //p' "$copy/Makefile")
jobs=${MAKE_JOBS:-$(nproc)}
log "instrumented overlay: make -j$jobs (${#ours[@]} C files; log: $copy_top/make.log)"
(cd "$copy" && PATH=/usr/lib/ccache:$PATH make -j"$jobs" \
     CFLAGS="$cflags -g -O1 $san" LDFLAGS="$san" > "$copy_top/make.log" 2>&1) \
    || { grep -E -B2 -A6 'error:|Error [0-9]' "$copy_top/make.log" | tail -40;
         die "instrumented overlay: make failed (log: $copy_top/make.log)"; }

# the library the ranks load must be the instrumented one
# (grep reads it all: a grep -q that stops early fails the pipeline)
nm -D "$copy/ompi/.libs/libmpi.so" | grep " U $init" > /dev/null \
    || die "instrumented overlay: $copy/ompi/.libs/libmpi.so has no $kind calls ($init)"
echo "$want" > "$stamp"
log "instrumented overlay: done ($((SECONDS - t0)) s)"
