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
 * Setting a channel up at match time.  Both sides decide from the same
 * facts: the bytes moved per message (the smaller of the two sizes: a
 * larger send is truncated, and every receive reports MPI_ERR_TRUNCATE in
 * its status, as match/sm does) and whether messages go through the
 * receiver's ring (eager) or by UCX's rendezvous (tag send and receive of
 * the channel's tag).  Everything that can fail on the receiver's side
 * (endpoint, remote key, bounce buffer) is done in accept, which then
 * chooses the fallback.
 *
 * Offer: flags MATCH_UCX_CONTIGUOUS; word 0 the sender's slot address,
 *        word 1 its slot, word 2 its generation; tail: worker address,
 *        region key.
 * Accept: flags MATCH_UCX_EAGER; word 0 the receiver's slot address,
 *        word 1 the channel's tag (rendezvous), word 2 the ring entry
 *        size and (above bit 32) the slot's generation; tail: worker
 *        address, region key.
 */

#include "ompi_config.h"

#include <string.h>

#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_request.h"
#include "ompi/mca/match/ucx/match_ucx.h"
#include "ompi/proc/proc.h"

#define MATCH_UCX_CONTIGUOUS 0x1u
#define MATCH_UCX_EAGER 0x2u

/* the tail: two lengths, then the pieces (worker address, region key) */
#define MATCH_UCX_TAIL_PIECES 2

static bool match_ucx_applies(const mca_match_request_t *request, struct ompi_proc_t *peer)
{
    if (NULL == peer) {
        return false;
    }
    if (!mca_match_ucx_component.same_node
        && (OPAL_PROC_ON_LOCAL_NODE(peer->super.proc_flags) || peer == ompi_proc_local())) {
        return false;
    }
    return !mca_match_base_on_device(request->mr_desc.buf);
}

static bool match_ucx_contiguous(const mca_match_request_t *request)
{
    return opal_datatype_is_contiguous_memory_layout(&request->mr_desc.datatype->super,
                                                     request->mr_desc.count);
}

static int match_ucx_offer(mca_match_request_t *request, struct ompi_proc_t *peer,
                           mca_match_channel_info_t *info)
{
    const void *piece[MATCH_UCX_TAIL_PIECES] = {NULL, NULL};
    size_t len[MATCH_UCX_TAIL_PIECES] = {0, 0};
    uint32_t index, generation;
    uint64_t address;
    int ret;

    if (MCA_PML_BASE_SEND_BUFFERED == request->mr_desc.mode) {
        /* a buffered start must complete locally before its receive
         * starts: the attached buffer is the fallback's business */
        return OMPI_ERR_NOT_SUPPORTED;
    }
    if (!match_ucx_applies(request, peer)) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    OPAL_THREAD_LOCK(&mca_match_ucx_lock);
    ret = mca_match_ucx_open_worker();
    if (OMPI_SUCCESS == ret) {
        ret = mca_match_ucx_slot_alloc(&index, &address, &generation);
    }
    if (OMPI_SUCCESS == ret) {
        (void) mca_match_ucx_own_address((const ucp_address_t **) &piece[0], &len[0]);
        (void) mca_match_ucx_region_rkey(&piece[1], &len[1]);
        ret = mca_match_base_tail_pack(info, MATCH_UCX_TAIL_PIECES, piece, len);
        if (OMPI_SUCCESS != ret) {
            mca_match_ucx_slot_release(index);
        }
    }
    OPAL_THREAD_UNLOCK(&mca_match_ucx_lock);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    info->flags = match_ucx_contiguous(request) ? MATCH_UCX_CONTIGUOUS : 0;
    info->word[0] = address;
    info->word[1] = index;
    info->word[2] = generation;
    return OMPI_SUCCESS;
}

/* lock held: the endpoint and the region key of the peer that sent info,
 * and the peer's slot (req->peer_slot) mapped here when a shared-memory
 * transport allows: then words and eager data are stored, not put */
static int match_ucx_reach(mca_match_ucx_half_t *req, struct ompi_proc_t *peer,
                           const mca_match_channel_info_t *info)
{
    const void *address, *rkey;
    size_t address_len, rkey_len;
    void *ptr;
    int ret;

    if (!mca_match_base_tail_piece(info, MATCH_UCX_TAIL_PIECES, 0, &address, &address_len) || 0 == address_len
        || !mca_match_base_tail_piece(info, MATCH_UCX_TAIL_PIECES, 1, &rkey, &rkey_len) || 0 == rkey_len) {
        return OMPI_ERR_BAD_PARAM;
    }
    ret = mca_match_ucx_reach(peer, address, address_len, rkey, rkey_len, &req->ep,
                              &req->slot_rkey);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    if (mca_match_ucx_component.map_peer
        && UCS_OK == ucp_rkey_ptr(req->slot_rkey, req->peer_slot, &ptr)) {
        req->peer_ptr = ptr;
    }
    opal_output_verbose(MCA_BASE_VERBOSE_TRACE, OMPI_MATCH_BASE_OUTPUT,
                        "match:ucx: %s half: %s, %s into the peer's slot",
                        req->super.is_send ? "send" : "receive",
                        req->inline_msg ? "inline" : req->eager ? "eager" : "rendezvous",
                        NULL != req->peer_ptr ? "stores" : "puts");
    return ret;
}

static int match_ucx_accept(mca_match_request_t *request, struct ompi_proc_t *peer,
                            const mca_match_channel_info_t *offer, mca_match_channel_info_t *info)
{
    const mca_match_ucx_component_t *c = &mca_match_ucx_component;
    const void *piece[MATCH_UCX_TAIL_PIECES] = {NULL, NULL};
    size_t len[MATCH_UCX_TAIL_PIECES] = {0, 0};
    mca_match_ucx_half_t *req;
    uint64_t address;
    int ret;

    if (!match_ucx_applies(request, peer)) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    req = mca_match_ucx_half_new(request, false);
    if (NULL == req) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    req->super.bytes = offer->bytes < info->bytes ? offer->bytes : info->bytes;
    req->super.truncated = offer->bytes > info->bytes;
    req->eager = req->super.bytes <= c->eager_limit;
    req->inline_msg = req->eager && req->super.bytes <= MCA_MATCH_UCX_INLINE_MAX;
    req->entry = c->eager_limit;

    OPAL_THREAD_LOCK(&mca_match_ucx_lock);
    ret = mca_match_ucx_open_worker();
    if (OMPI_SUCCESS != ret) {
        goto err_unlock;
    }
    ret = mca_match_ucx_slot_alloc(&req->slot_index, &address, &req->own_gen);
    if (OMPI_SUCCESS != ret) {
        goto err_unlock;
    }
    req->has_slot = true;
    req->word = (volatile uint64_t *) (uintptr_t) address;
    req->lines = (unsigned char *) (uintptr_t) address + MCA_MATCH_UCX_LINE;
    req->ring = (unsigned char *) (uintptr_t) address + MCA_MATCH_UCX_RING_AT;
    req->peer_slot = offer->word[0];
    req->peer_gen = offer->word[2] << MCA_MATCH_UCX_COUNT_BITS;
    ret = match_ucx_reach(req, peer, offer);
    if (OMPI_SUCCESS != ret) {
        goto err_unlock;
    }
    if (!req->eager && !req->super.contiguous) {
        req->bounce = malloc(req->super.bytes);
        if (NULL == req->bounce) {
            ret = OMPI_ERR_OUT_OF_RESOURCE;
            goto err_unlock;
        }
    }
    /* unique among this worker's channels while the slot is held */
    req->tag = ((ucp_tag_t) req->own_gen << 32) | req->slot_index;
    (void) mca_match_ucx_own_address((const ucp_address_t **) &piece[0], &len[0]);
    (void) mca_match_ucx_region_rkey(&piece[1], &len[1]);
    ret = mca_match_base_tail_pack(info, MATCH_UCX_TAIL_PIECES, piece, len);
    if (OMPI_SUCCESS != ret) {
        goto err_unlock;
    }
    mca_match_base_chan_progress_on(&mca_match_ucx_chan);
    OPAL_THREAD_UNLOCK(&mca_match_ucx_lock);

    info->flags = req->eager ? MATCH_UCX_EAGER : 0;
    info->word[0] = address;
    info->word[1] = req->tag;
    info->word[2] = req->entry | ((uint64_t) req->own_gen << 32);
    return mca_match_base_chan_attach(request, &req->super, &mca_match_ucx_channel_ops);

err_unlock:
    OPAL_THREAD_UNLOCK(&mca_match_ucx_lock);
    OBJ_RELEASE(req); /* the destructor releases what was acquired */
    return ret;
}

static int match_ucx_connect(mca_match_request_t *request, const mca_match_channel_info_t *offer,
                             const mca_match_channel_info_t *accept)
{
    mca_match_ucx_half_t *req;
    struct ompi_proc_t *peer = ompi_comm_peer_lookup(request->mr_desc.comm, request->mr_peer);
    int ret;

    req = mca_match_ucx_half_new(request, true);
    if (NULL == req) {
        OPAL_THREAD_LOCK(&mca_match_ucx_lock);
        mca_match_ucx_slot_release((uint32_t) offer->word[1]);
        OPAL_THREAD_UNLOCK(&mca_match_ucx_lock);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    req->slot_index = (uint32_t) offer->word[1];
    req->has_slot = true;
    req->word = (volatile uint64_t *) (uintptr_t) offer->word[0];
    req->super.bytes = offer->bytes < accept->bytes ? offer->bytes : accept->bytes;
    req->eager = 0 != (MATCH_UCX_EAGER & accept->flags);
    req->inline_msg = req->eager && req->super.bytes <= MCA_MATCH_UCX_INLINE_MAX;
    req->entry = (size_t) (accept->word[2] & UINT32_MAX);
    req->own_gen = (uint32_t) offer->word[2];
    req->peer_gen = (accept->word[2] >> 32) << MCA_MATCH_UCX_COUNT_BITS;
    req->peer_slot = accept->word[0];
    req->tag = accept->word[1];
    req->super.sync = MCA_PML_BASE_SEND_SYNCHRONOUS == request->mr_desc.mode;
    if (!req->super.contiguous && 0 < req->super.bytes) {
        req->bounce = malloc(req->super.bytes);
        if (NULL == req->bounce) {
            ret = OMPI_ERR_OUT_OF_RESOURCE;
            goto err;
        }
    }

    OPAL_THREAD_LOCK(&mca_match_ucx_lock);
    ret = match_ucx_reach(req, peer, accept);
    if (OMPI_SUCCESS == ret) {
        mca_match_base_chan_progress_on(&mca_match_ucx_chan);
    }
    OPAL_THREAD_UNLOCK(&mca_match_ucx_lock);
    if (OMPI_SUCCESS != ret) {
        goto err;
    }
    return mca_match_base_chan_attach(request, &req->super, &mca_match_ucx_channel_ops);

err:
    opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                        "match:ucx: cannot reach the receiver (error %d)", ret);
    OBJ_RELEASE(req);
    return ret;
}

static void match_ucx_abandon(mca_match_request_t *request, const mca_match_channel_info_t *offer)
{
    (void) request;
    OPAL_THREAD_LOCK(&mca_match_ucx_lock);
    mca_match_ucx_slot_release((uint32_t) offer->word[1]);
    OPAL_THREAD_UNLOCK(&mca_match_ucx_lock);
}

mca_match_base_module_t mca_match_ucx_module =
    MCA_MATCH_BASE_CHAN_MODULE(&mca_match_ucx_component.super, MCA_MATCH_CHANNEL_UCX, match_ucx);
