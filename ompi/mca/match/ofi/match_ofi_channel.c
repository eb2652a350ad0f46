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
 * Setting a channel up at match time.  Both sides move the smaller of the
 * two sizes per message (a larger send is truncated, and the receive
 * reports MPI_ERR_TRUNCATE, as match/sm and match/ucx do).  The receiver,
 * who knows both sizes, registers where messages land; everything that
 * can fail on its side is done in accept, which then chooses the fallback.
 *
 * Offer:  word 0 the completion data naming the sender's slot, word 1 and
 *         word 2 the address and key of the sender's doorbell (grants
 *         land there: the slot's own, counted one, where the provider
 *         has triggered writes); flags MATCH_OFI_RING_OK when the send
 *         may write into a receive ring (neither synchronous, which needs
 *         the grant of its own receive, nor armed as triggered writes,
 *         whose thresholds count one grant per message); tail: endpoint
 *         name, provider name.
 * Accept: word 0 the completion data naming the receiver's slot, word 1
 *         and word 2 the address (or offset) and key where messages land
 *         (the receive ring, or the receiver's doorbell for zero-byte
 *         messages); flags the ring's entries, 0 for none; tail: endpoint
 *         name, provider name.
 */

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_request.h"
#include "ompi/mca/match/ofi/match_ofi.h"
#include "ompi/proc/proc.h"
#include "ompi/runtime/params.h"

/* the tail: two lengths, then the pieces (endpoint name, provider name) */
#define MATCH_OFI_TAIL_PIECES 2

/* offer flags */
#define MATCH_OFI_RING_OK 0x1

/* lock held: this process's endpoint name and provider into the tail */
static int match_ofi_tail_pack(mca_match_channel_info_t *info)
{
    const void *piece[MATCH_OFI_TAIL_PIECES];
    size_t len[MATCH_OFI_TAIL_PIECES];

    mca_match_ofi_own_name(&piece[0], &len[0]);
    piece[1] = mca_match_ofi_provider();
    len[1] = strlen(piece[1]);
    return mca_match_base_tail_pack(info, MATCH_OFI_TAIL_PIECES, piece, len);
}

/* lock held: the peer's endpoint, from the info it sent.  Endpoint names
 * of different providers mean nothing to each other: a peer that chose
 * another provider (another node's hardware, another include list) is
 * not reached. */
static int match_ofi_reach_peer(struct ompi_proc_t *peer, const mca_match_channel_info_t *info,
                                fi_addr_t *addr)
{
    const char *own = mca_match_ofi_provider();
    const void *name, *prov;
    size_t name_len, prov_len;

    if (!mca_match_base_tail_piece(info, MATCH_OFI_TAIL_PIECES, 0, &name, &name_len)
        || 0 == name_len
        || !mca_match_base_tail_piece(info, MATCH_OFI_TAIL_PIECES, 1, &prov, &prov_len)) {
        return OMPI_ERR_BAD_PARAM;
    }
    if (prov_len != strlen(own) || 0 != memcmp(prov, own, prov_len)) {
        opal_output_verbose(MCA_BASE_VERBOSE_INFO, OMPI_MATCH_BASE_OUTPUT,
                            "match:ofi: %s uses provider %.*s, this process %s: not reached",
                            OMPI_NAME_PRINT(&peer->super.proc_name), (int) prov_len,
                            (const char *) prov, own);
        return OMPI_ERR_UNREACH;
    }
    if (!mca_match_ofi_data_fits(info->word[0])) {
        return OMPI_ERR_UNREACH;
    }
    return mca_match_ofi_reach(peer, name, name_len, addr);
}

/* why the channel does not apply to this side of the pair, NULL if it does */
static const char *match_ofi_declines(const mca_match_request_t *request,
                                      struct ompi_proc_t *peer)
{
    if (NULL == peer) {
        return "no peer process";
    }
    if (!mca_match_ofi_component.same_node
        && (OPAL_PROC_ON_LOCAL_NODE(peer->super.proc_flags) || peer == ompi_proc_local())) {
        return "the peer is on this node (match_ofi_same_node=0)";
    }
    if (mca_match_base_on_device(request->mr_desc.buf)) {
        return "device memory";
    }
#if OPAL_ENABLE_FT_MPI
    /* a provider's progress after a peer died is not ours to make safe:
     * the PML channel reports the failure without it */
    if (ompi_ftmpi_enabled && !mca_match_ofi_component.ulfm) {
        return "ULFM is on (match_ofi_ulfm=0)";
    }
#endif
    return NULL;
}

static int match_ofi_decline(const mca_match_request_t *request, const char *why)
{
    opal_output_verbose(MCA_BASE_VERBOSE_INFO, OMPI_MATCH_BASE_OUTPUT,
                        "match:ofi: request %p: not for this pair: %s", (const void *) request,
                        why);
    return OMPI_ERR_NOT_SUPPORTED;
}

static int match_ofi_offer(mca_match_request_t *request, struct ompi_proc_t *peer,
                           mca_match_channel_info_t *info)
{
    const char *why;
    uint32_t index;
    uint64_t data, doorbell_addr, doorbell_key;
    bool counted = false;
    int ret;

    if (MCA_PML_BASE_SEND_BUFFERED == request->mr_desc.mode) {
        /* a buffered start must complete locally before its receive
         * starts: the attached buffer is the fallback's business */
        return match_ofi_decline(request, "buffered send");
    }
    why = match_ofi_declines(request, peer);
    if (NULL != why) {
        return match_ofi_decline(request, why);
    }
    OPAL_THREAD_LOCK(&mca_match_ofi_lock);
    ret = mca_match_ofi_open_fabric();
    if (OMPI_SUCCESS == ret) {
        ret = mca_match_ofi_slot_alloc(&index, &data);
    }
    if (OMPI_SUCCESS == ret) {
        ret = match_ofi_tail_pack(info);
        if (OMPI_SUCCESS != ret) {
            mca_match_ofi_slot_release(index, NULL, NULL);
        }
    }
    if (OMPI_SUCCESS == ret) {
        counted = mca_match_ofi_triggered()
                  && OMPI_SUCCESS == mca_match_ofi_slot_trigger(index, &doorbell_addr,
                                                                &doorbell_key);
        if (!counted) {
            mca_match_ofi_doorbell(&doorbell_addr, &doorbell_key);
        }
    }
    OPAL_THREAD_UNLOCK(&mca_match_ofi_lock);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    info->flags = (MCA_PML_BASE_SEND_SYNCHRONOUS != request->mr_desc.mode && !counted)
                      ? MATCH_OFI_RING_OK
                      : 0;
    info->word[0] = data;
    info->word[1] = doorbell_addr;
    info->word[2] = doorbell_key;
    return OMPI_SUCCESS;
}

/* lock held: where the sender's messages land, registered for its writes:
 * the ring, the receive buffer, or a bounce buffer */
static int match_ofi_landing(mca_match_ofi_half_t *req, uint64_t *addr, uint64_t *key)
{
    void *desc;

    if (0 == req->super.bytes) {
        mca_match_ofi_doorbell(addr, key);
        return OMPI_SUCCESS;
    }
    if (0 != req->ring) {
        if (0 != posix_memalign((void **) &req->ring_buf, 64, req->ring * req->stride)) {
            req->ring_buf = NULL;
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        return mca_match_ofi_mr_reg(req->ring_buf, req->ring * req->stride, FI_REMOTE_WRITE,
                                    &req->mr, addr, key, &desc);
    }
    if (!req->super.contiguous) {
        req->bounce = malloc(req->super.bytes);
        if (NULL == req->bounce) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
    }
    return mca_match_ofi_mr_reg(req->super.contiguous ? (void *) req->super.cptr
                                                      : (void *) req->bounce,
                                req->super.bytes, FI_REMOTE_WRITE, &req->mr, addr, key, &desc);
}

static int match_ofi_accept(mca_match_request_t *request, struct ompi_proc_t *peer,
                            const mca_match_channel_info_t *offer, mca_match_channel_info_t *info)
{
    mca_match_ofi_half_t *req;
    const char *why = match_ofi_declines(request, peer);
    uint64_t data, addr, key;
    int ret;

    if (NULL != why) {
        return match_ofi_decline(request, why);
    }
    req = mca_match_ofi_half_new(request, false);
    if (NULL == req) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    req->super.bytes = offer->bytes < info->bytes ? offer->bytes : info->bytes;
    req->super.truncated = offer->bytes > info->bytes;
    req->peer_data = offer->word[0];
    req->peer_addr = offer->word[1];
    req->peer_key = offer->word[2];

    OPAL_THREAD_LOCK(&mca_match_ofi_lock);
    ret = mca_match_ofi_open_fabric();
    if (OMPI_SUCCESS != ret) {
        goto err_unlock;
    }
    if (req->super.bytes > mca_match_ofi_max_msg_size()) {
        OPAL_THREAD_UNLOCK(&mca_match_ofi_lock);
        OBJ_RELEASE(req);
        return match_ofi_decline(request, "a message larger than the provider's max_msg_size");
    }
    ret = match_ofi_reach_peer(peer, offer, &req->peer);
    if (OMPI_SUCCESS != ret) {
        goto err_unlock;
    }
    if (0 != (offer->flags & MATCH_OFI_RING_OK)
        && req->super.bytes <= mca_match_ofi_inject_size()) {
        req->ring = mca_match_ofi_ring();
        req->stride = (req->super.bytes + 7) & ~(size_t) 7;
    }
    ret = mca_match_ofi_slot_alloc(&req->slot, &data);
    if (OMPI_SUCCESS != ret) {
        goto err_unlock;
    }
    req->has_slot = true;
    mca_match_ofi_slot(req->slot)->half = req;
    ret = match_ofi_landing(req, &addr, &key);
    if (OMPI_SUCCESS != ret) {
        goto err_unlock;
    }
    ret = match_ofi_tail_pack(info);
    if (OMPI_SUCCESS != ret) {
        goto err_unlock;
    }
    OPAL_THREAD_UNLOCK(&mca_match_ofi_lock);

    info->flags = req->ring;
    info->word[0] = data;
    info->word[1] = addr;
    info->word[2] = key;
    opal_output_verbose(MCA_BASE_VERBOSE_TRACE, OMPI_MATCH_BASE_OUTPUT,
                        "match:ofi: receive half in slot %u: %zu bytes into %s%s%s",
                        req->slot, req->super.bytes,
                        0 == req->super.bytes   ? "the doorbell"
                        : 0 != req->ring  ? "a ring"
                        : req->super.contiguous ? "the receive buffer"
                                          : "a bounce buffer",
                        0 != req->ring ? ", granted every half ring" : "",
                        req->super.truncated ? ", truncated" : "");
    return mca_match_base_chan_attach(request, &req->super, &mca_match_ofi_channel_ops);

err_unlock:
    OPAL_THREAD_UNLOCK(&mca_match_ofi_lock);
    OBJ_RELEASE(req); /* the destructor releases what was acquired */
    return ret;
}

/* lock held: the sender's source, registered where the provider wants
 * local buffers registered (injected messages need no registration) */
static int match_ofi_source(mca_match_ofi_half_t *req)
{
    uint64_t addr, key;

    if (!req->super.contiguous && 0 < req->super.bytes) {
        req->bounce = malloc(req->super.bytes);
        if (NULL == req->bounce) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
    }
    if (req->inject || !mca_match_ofi_mr_local()) {
        return OMPI_SUCCESS;
    }
    return mca_match_ofi_mr_reg(req->super.contiguous ? (void *) req->super.cptr
                                                      : (void *) req->bounce,
                                req->super.bytes, FI_WRITE, &req->mr, &addr, &key, &req->desc);
}

static int match_ofi_connect(mca_match_request_t *request, const mca_match_channel_info_t *offer,
                             const mca_match_channel_info_t *accept)
{
    struct ompi_proc_t *peer = ompi_comm_peer_lookup(request->mr_desc.comm, request->mr_peer);
    uint32_t index = (uint32_t) (offer->word[0] & MCA_MATCH_OFI_INDEX_MASK);
    mca_match_ofi_half_t *req;
    int ret;

    req = mca_match_ofi_half_new(request, true);
    if (NULL == req) {
        OPAL_THREAD_LOCK(&mca_match_ofi_lock);
        mca_match_ofi_slot_release(index, NULL, NULL);
        OPAL_THREAD_UNLOCK(&mca_match_ofi_lock);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    req->slot = index;
    req->has_slot = true;
    req->super.bytes = offer->bytes < accept->bytes ? offer->bytes : accept->bytes;
    req->super.sync = MCA_PML_BASE_SEND_SYNCHRONOUS == request->mr_desc.mode;
    req->peer_data = accept->word[0];
    req->peer_addr = accept->word[1];
    req->peer_key = accept->word[2];
    if (0 != accept->flags) {
        /* a ring this side did not offer, or of a size not carried */
        if (0 == (offer->flags & MATCH_OFI_RING_OK) || 1 == accept->flags
            || accept->flags > MCA_MATCH_OFI_RING_MAX) {
            OBJ_RELEASE(req); /* releases the slot */
            return OMPI_ERR_BAD_PARAM;
        }
        req->ring = accept->flags;
        req->stride = (req->super.bytes + 7) & ~(size_t) 7;
    }

    OPAL_THREAD_LOCK(&mca_match_ofi_lock);
    /* grants that came before this point are counted in the slot */
    mca_match_ofi_slot(index)->half = req;
    req->inject = req->super.bytes <= mca_match_ofi_inject_size();
    ret = match_ofi_reach_peer(peer, accept, &req->peer);
    if (OMPI_SUCCESS == ret) {
        ret = match_ofi_source(req);
    }
    OPAL_THREAD_UNLOCK(&mca_match_ofi_lock);
    if (OMPI_SUCCESS != ret) {
        opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                            "match:ofi: cannot set the send half up (error %d)", ret);
        OBJ_RELEASE(req);
        return ret;
    }
    opal_output_verbose(MCA_BASE_VERBOSE_TRACE, OMPI_MATCH_BASE_OUTPUT,
                        "match:ofi: send half in slot %u: %zu bytes, %s%s%s", req->slot,
                        req->super.bytes, req->inject ? "injected" : "written",
                        req->super.sync ? ", synchronous" : "",
                        0 != req->ring ? " into a receive ring" : "");
    return mca_match_base_chan_attach(request, &req->super, &mca_match_ofi_channel_ops);
}

static void match_ofi_abandon(mca_match_request_t *request, const mca_match_channel_info_t *offer)
{
    (void) request;
    OPAL_THREAD_LOCK(&mca_match_ofi_lock);
    mca_match_ofi_slot_release((uint32_t) (offer->word[0] & MCA_MATCH_OFI_INDEX_MASK), NULL,
                               NULL);
    OPAL_THREAD_UNLOCK(&mca_match_ofi_lock);
}

mca_match_base_module_t mca_match_ofi_module =
    MCA_MATCH_BASE_CHAN_MODULE(&mca_match_ofi_component.super, MCA_MATCH_CHANNEL_OFI, match_ofi);
