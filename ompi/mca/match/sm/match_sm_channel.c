/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Setting a channel up at match time.  Everything a start needs is decided
 * here, identically on both sides from the same facts: the bytes moved per
 * message (the smaller of the two sizes: a larger send is truncated, and
 * every receive reports MPI_ERR_TRUNCATE in its status, as a plain receive
 * does), the chunks per message, whether it is inline, and whether the
 * receiver reads it by single copy.
 *
 * Offer words: 0 the sender's pid, 1 its slot, 2 the address of its data.
 * Accept flags: MATCH_SM_CMA when the receiver will read by single copy.
 */

#include "ompi_config.h"

#include <errno.h>
#include <sys/uio.h>
#include <unistd.h>

#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_request.h"
#include "ompi/mca/match/sm/match_sm.h"
#include "ompi/proc/proc.h"

#define MATCH_SM_CONTIGUOUS 0x1u
#define MATCH_SM_CMA 0x2u

/* both sides compute the same geometry from the same facts */
static void match_sm_geometry(mca_match_sm_half_t *req, uint64_t send_bytes,
                              uint64_t recv_bytes, bool cma, uint32_t chunk_size,
                              uint32_t ring_chunks)
{
    req->super.bytes = send_bytes < recv_bytes ? send_bytes : recv_bytes;
    req->super.truncated = !req->super.is_send && send_bytes > recv_bytes;
    req->cma = cma;
    req->chunk = cma ? req->super.bytes : chunk_size;
    req->nchunks
        = (cma || 0 == req->super.bytes) ? 1 : (req->super.bytes + chunk_size - 1) / chunk_size;
    req->depth = 1 < req->nchunks ? ring_chunks : 1;
    req->inl = !cma && req->super.bytes <= MCA_MATCH_SM_INLINE;
    if (req->inl) {
        size_t lines = (size_t) chunk_size * ring_chunks / MCA_MATCH_SM_LINE;
        req->depth = lines < MCA_MATCH_SM_INLINE_LINES ? lines : MCA_MATCH_SM_INLINE_LINES;
        while (0 != (req->depth & (req->depth - 1))) {
            /* a power of two: a line is found with a mask */
            req->depth &= req->depth - 1;
        }
    }
}

static int match_sm_offer(mca_match_request_t *request, struct ompi_proc_t *peer,
                          mca_match_channel_info_t *info)
{
    mca_match_sm_slot_t *slot;
    unsigned char *ring;
    uint32_t index;
    int ret;

    if (!OPAL_PROC_ON_LOCAL_NODE(peer->super.proc_flags) && peer != ompi_proc_local()) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    if (MCA_PML_BASE_SEND_BUFFERED == request->mr_desc.mode) {
        /* a buffered start must complete locally even when the ring is
         * full: the attached buffer is the fallback's business */
        return OMPI_ERR_NOT_SUPPORTED;
    }
    if (mca_match_base_on_device(request->mr_desc.buf)) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    ret = mca_match_sm_segment_slot_alloc(&index, &slot, &ring);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    info->flags = opal_datatype_is_contiguous_memory_layout(&request->mr_desc.datatype->super,
                                                            request->mr_desc.count)
                      ? MATCH_SM_CONTIGUOUS
                      : 0;
    info->word[0] = (uint64_t) getpid();
    info->word[1] = index;
    info->word[2] = (uint64_t) (uintptr_t) ((unsigned char *) request->mr_desc.buf
                                            + request->mr_desc.datatype->super.true_lb);
    return OMPI_SUCCESS;
}

/* lock held: may this process read the sender's memory?  Asked once per
 * peer, by reading one byte of the offered data (ptrace rules, containers) */
static bool match_sm_cma_allowed(mca_match_sm_seg_t *seg, uint64_t addr)
{
#if OMPI_MATCH_SM_HAVE_CMA
    char byte;
    struct iovec local = {.iov_base = &byte, .iov_len = 1};
    struct iovec remote = {.iov_base = (void *) (uintptr_t) addr, .iov_len = 1};

    if (0 == seg->cma) {
        seg->cma = (1 == process_vm_readv(seg->pid, &local, 1, &remote, 1, 0)) ? 1 : -1;
        opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                            "match:sm: single copy from process %d %s", (int) seg->pid,
                            0 < seg->cma ? "allowed" : "refused: pipelined copies");
    }
    return 0 < seg->cma;
#else
    (void) seg;
    (void) addr;
    return false;
#endif
}

static int match_sm_accept(mca_match_request_t *request, struct ompi_proc_t *peer,
                           const mca_match_channel_info_t *offer, mca_match_channel_info_t *info)
{
    const mca_match_sm_component_t *c = &mca_match_sm_component;
    mca_match_sm_half_t *req;
    mca_match_sm_seg_t *seg;
    mca_match_sm_slot_t *slot;
    unsigned char *ring;
    uint32_t chunk_size, ring_chunks;
    uint64_t bytes = offer->bytes < info->bytes ? offer->bytes : info->bytes;
    bool cma = false;

    if (NULL == peer
        || (!OPAL_PROC_ON_LOCAL_NODE(peer->super.proc_flags) && peer != ompi_proc_local())
        || mca_match_base_on_device(request->mr_desc.buf)) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    req = mca_match_sm_half_new(request, false);
    if (NULL == req) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    OPAL_THREAD_LOCK(&mca_match_sm_lock);
    seg = mca_match_sm_segment_attach((pid_t) offer->word[0]);
    if (NULL == seg
        || !mca_match_sm_segment_slot(seg, (uint32_t) offer->word[1], &slot, &ring, &chunk_size,
                                      &ring_chunks)) {
        OPAL_THREAD_UNLOCK(&mca_match_sm_lock);
        OBJ_RELEASE(req);
        return OMPI_ERR_UNREACH;
    }
    if (c->single_copy && (MATCH_SM_CONTIGUOUS & offer->flags) && req->super.contiguous
        && 0 < bytes && bytes >= c->single_copy_threshold) {
        cma = match_sm_cma_allowed(seg, offer->word[2]);
    }
    mca_match_base_chan_progress_on(&mca_match_sm_chan);
    OPAL_THREAD_UNLOCK(&mca_match_sm_lock);

    req->slot = slot;
    req->ring = ring;
    req->cma_pid = (pid_t) offer->word[0];
    req->cma_addr = offer->word[2];
    match_sm_geometry(req, offer->bytes, info->bytes, cma, chunk_size, ring_chunks);
    info->flags = cma ? MATCH_SM_CMA : 0;
    return mca_match_base_chan_attach(request, &req->super, &mca_match_sm_channel_ops);
}

static int match_sm_connect(mca_match_request_t *request, const mca_match_channel_info_t *offer,
                            const mca_match_channel_info_t *accept)
{
    mca_match_sm_half_t *req;
    mca_match_sm_slot_t *slot;
    unsigned char *ring;
    uint32_t chunk_size, ring_chunks;
    mca_match_sm_seg_t *own;

    req = mca_match_sm_half_new(request, true);
    if (NULL == req) {
        mca_match_sm_segment_slot_release((uint32_t) offer->word[1]);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    OPAL_THREAD_LOCK(&mca_match_sm_lock);
    own = mca_match_sm_segment_attach(getpid());
    (void) mca_match_sm_segment_slot(own, (uint32_t) offer->word[1], &slot, &ring, &chunk_size,
                                     &ring_chunks);
    mca_match_base_chan_progress_on(&mca_match_sm_chan);
    OPAL_THREAD_UNLOCK(&mca_match_sm_lock);
    req->slot = slot;
    req->ring = ring;
    req->slot_index = (uint32_t) offer->word[1];
    req->super.sync = MCA_PML_BASE_SEND_SYNCHRONOUS == request->mr_desc.mode;
    match_sm_geometry(req, offer->bytes, accept->bytes, 0 != (MATCH_SM_CMA & accept->flags),
                      chunk_size, ring_chunks);
    return mca_match_base_chan_attach(request, &req->super, &mca_match_sm_channel_ops);
}

static void match_sm_abandon(mca_match_request_t *request, const mca_match_channel_info_t *offer)
{
    (void) request;
    mca_match_sm_segment_slot_release((uint32_t) offer->word[1]);
}

mca_match_base_module_t mca_match_sm_module =
    MCA_MATCH_BASE_CHAN_MODULE(&mca_match_sm_component.super, MCA_MATCH_CHANNEL_SM, match_sm);
