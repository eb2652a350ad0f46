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
 * The two halves of a UCX channel, run on the matched requests themselves:
 * a half is the channel's state for one side of a pair, not a request, so
 * a start and its completion touch the program's request alone (its
 * req_start, once matched, is match_ucx_start).
 *
 * Receive m: a rendezvous receive first posts the tag receive of the
 * channel's tag into its buffer (or bounce buffer), so that the message
 * finds it expected; then the start grants m (puts m into the sender's
 * slot, once: a cancelled receive's grant stands for the next start).  An
 * eager receive then waits for the sender's flag to reach m and copies the
 * message out of the ring; a rendezvous receive waits for its tag receive
 * (and unpacks the bounce buffer when not contiguous).
 *
 * Send m: waits for the grant its path needs (eager: receive m - DEPTH + 1
 * started, so that the ring entry it reuses has been consumed; rendezvous:
 * receive m started, its tag receive posted), then either puts the data
 * into the ring, a fence (the flag goes over the same lane) and the flag
 * m, or tag-sends the message (UCX's rendezvous: the receiver reads it
 * with cma or RDMA, or it streams over TCP).  It completes when its
 * operations completed locally (a rendezvous send, once the receiver has
 * the data); a synchronous send also waits for the grant of receive m (its
 * receive has started).
 *
 * A start moves what it can at once; otherwise the request goes on the
 * active list, the only requests the progress callback advances.  UCX is
 * only called under mca_match_ucx_lock; completions run after the lock is
 * dropped, since a completion may start another matched request.
 */

#include "ompi_config.h"

#include <stddef.h>
#include <string.h>

#include "opal/datatype/opal_convertor.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_request.h"
#include "ompi/mca/match/ucx/match_ucx.h"

static void match_ucx_request_construct(mca_match_ucx_half_t *req)
{
    memset(&req->ep, 0, sizeof(*req) - offsetof(mca_match_ucx_half_t, ep));
}

/* lock held: forget operations in flight (UCX completes them on its own);
 * a tag receive still posted is cancelled first, so that no later message
 * lands in a buffer the request no longer owns */
static void match_ucx_drop_ops(mca_match_ucx_half_t *req)
{
    if (!req->super.is_send && NULL != req->ops[1]) {
        ucp_request_cancel(mca_match_ucx_worker(), req->ops[1]);
    }
    for (int i = 0; i < 2; ++i) {
        if (NULL != req->ops[i]) {
            ucp_request_free(req->ops[i]);
            req->ops[i] = NULL;
        }
    }
}

static void match_ucx_request_destruct(mca_match_ucx_half_t *req)
{
    OPAL_THREAD_LOCK(&mca_match_ucx_lock);
    if (mca_match_base_chan_is_open(&mca_match_ucx_chan)) {
        match_ucx_drop_ops(req);
        if (req->has_slot) {
            mca_match_ucx_slot_release(req->slot_index);
        }
    }
    OPAL_THREAD_UNLOCK(&mca_match_ucx_lock);
    free(req->bounce);
}

OBJ_CLASS_INSTANCE(mca_match_ucx_half_t, mca_match_base_chan_half_t, match_ucx_request_construct,
                   match_ucx_request_destruct);

/* lock held: one put; a pending operation is kept in ops[slot] */
static int match_ucx_put(mca_match_ucx_half_t *req, int slot, const void *src, size_t len,
                         uint64_t remote, ucp_rkey_h rkey)
{
    ucp_request_param_t param = {.op_attr_mask = 0};
    ucs_status_ptr_t op = ucp_put_nbx(req->ep, src, len, remote, rkey, &param);

    if (UCS_PTR_IS_ERR(op)) {
        opal_output_verbose(MCA_BASE_VERBOSE_ERROR, OMPI_MATCH_BASE_OUTPUT,
                            "match:ucx: put of %zu bytes failed: %s", len,
                            ucs_status_string(UCS_PTR_STATUS(op)));
        MCA_MATCH_BASE_CHAN_STATUS(&req->super) = MPI_ERR_OTHER;
        return MPI_ERR_OTHER;
    }
    req->ops[slot] = UCS_PTR_IS_PTR(op) ? op : NULL;
    return MPI_SUCCESS;
}

/* lock held: write value at off in the peer's slot (its word at 0, or an
 * inline line's stamp): a release store when the peer's region is mapped
 * here (a shared-memory transport), else a put */
static inline int match_ucx_put_word(mca_match_ucx_half_t *req, int slot, size_t off,
                                     uint64_t value)
{
    if (OPAL_LIKELY(NULL != req->peer_ptr)) {
        __atomic_store_n((uint64_t *) (req->peer_ptr + off), value, __ATOMIC_RELEASE);
        return MPI_SUCCESS;
    }
    req->put_word = value;
    return match_ucx_put(req, slot, &req->put_word, sizeof(req->put_word),
                         req->peer_slot + off, req->slot_rkey);
}

/* lock held: are the request's operations complete? */
static bool match_ucx_ops_check(mca_match_ucx_half_t *req)
{
    for (int i = 0; i < 2; ++i) {
        if (NULL != req->ops[i]) {
            ucs_status_t status = ucp_request_check_status(req->ops[i]);
            if (UCS_INPROGRESS == status) {
                return false;
            }
            if (UCS_OK != status) {
                MCA_MATCH_BASE_CHAN_STATUS(&req->super) = MPI_ERR_OTHER;
            }
            ucp_request_free(req->ops[i]);
            req->ops[i] = NULL;
        }
    }
    return true;
}

static inline bool match_ucx_ops_done(mca_match_ucx_half_t *req)
{
    /* stores into a mapped region leave no operation */
    return (NULL == req->ops[0] && NULL == req->ops[1]) || match_ucx_ops_check(req);
}

static inline void match_ucx_unpack(mca_match_ucx_half_t *req, unsigned char *src)
{
    if (OPAL_LIKELY(req->super.contiguous)) {
        if (src != req->super.cptr) {
            mca_match_base_copy_small(req->super.cptr, src, req->super.bytes);
        }
        return;
    }
    mca_match_base_channel_unpack(&req->super.convertor, src, req->super.bytes);
}

/* the count in the own slot's word, 0 while the word holds a value meant
 * for the slot's previous channel */
static inline uint64_t match_ucx_word(const mca_match_ucx_half_t *req)
{
    uint64_t v = __atomic_load_n(req->word, __ATOMIC_ACQUIRE);

    return (v >> MCA_MATCH_UCX_COUNT_BITS) == req->own_gen ? v & MCA_MATCH_UCX_COUNT_MASK : 0;
}

/* has the receiver started receive need?  The grant word is read only
 * when the value last read does not tell: it is a line the receiver
 * writes at every start */
static inline bool match_ucx_granted(mca_match_ucx_half_t *req, uint64_t need)
{
    if (req->grant_seen < need) {
        req->grant_seen = match_ucx_word(req);
    }
    return req->grant_seen >= need;
}

/* the stamp message m carries in its line of the inline ring */
static inline uint64_t match_ucx_stamp(uint64_t gen, uint64_t m)
{
    return gen | (m & MCA_MATCH_UCX_COUNT_MASK);
}

/* receiver: the line of message m in the own inline ring */
static inline unsigned char *match_ucx_line(const mca_match_ucx_half_t *req, uint64_t m)
{
    return req->lines + ((m - 1) % MCA_MATCH_UCX_INLINE_DEPTH) * MCA_MATCH_UCX_LINE;
}

/* receiver: has message m arrived? */
static inline bool match_ucx_arrived(const mca_match_ucx_half_t *req, uint64_t m)
{
    if (req->inline_msg) {
        return __atomic_load_n((const uint64_t *) match_ucx_line(req, m), __ATOMIC_ACQUIRE)
               == match_ucx_stamp((uint64_t) req->own_gen << MCA_MATCH_UCX_COUNT_BITS, m);
    }
    return match_ucx_word(req) >= m;
}

/* lock held: the tag operation of a rendezvous message, send or receive of
 * the channel's tag; a pending one is kept in ops[slot] */
static int match_ucx_tag_op(mca_match_ucx_half_t *req, int slot, void *buf)
{
    ucp_request_param_t param = {.op_attr_mask = 0};
    ucs_status_ptr_t op;

    if (req->super.is_send) {
        op = ucp_tag_send_nbx(req->ep, buf, req->super.bytes, req->tag, &param);
    } else {
        op = ucp_tag_recv_nbx(mca_match_ucx_worker(), buf, req->super.bytes, req->tag,
                              ~(ucp_tag_t) 0, &param);
    }
    if (UCS_PTR_IS_ERR(op)) {
        opal_output_verbose(MCA_BASE_VERBOSE_ERROR, OMPI_MATCH_BASE_OUTPUT,
                            "match:ucx: tag %s of %zu bytes failed: %s",
                            req->super.is_send ? "send" : "receive", req->super.bytes,
                            ucs_status_string(UCS_PTR_STATUS(op)));
        MCA_MATCH_BASE_CHAN_STATUS(&req->super) = MPI_ERR_OTHER;
        return MPI_ERR_OTHER;
    }
    req->ops[slot] = UCS_PTR_IS_PTR(op) ? op : NULL;
    return MPI_SUCCESS;
}

/* lock held: the message's bytes put into the peer's region at off, and
 * a fence (see match_ucx_write_data) */
static int match_ucx_write_data_put(mca_match_ucx_half_t *req, const void *src, size_t off)
{
    if (!req->super.contiguous) {
        mca_match_base_channel_pack(&req->super.convertor, req->bounce, req->super.bytes);
    }
    if (MPI_SUCCESS != match_ucx_put(req, 0, src, req->super.bytes, req->peer_slot + off,
                                     req->slot_rkey)) {
        return MPI_ERR_OTHER;
    }
    (void) ucp_worker_fence(mca_match_ucx_worker());
    return MPI_SUCCESS;
}

/* lock held: the message's bytes into the peer's region at off (src: the
 * send buffer, or the bounce buffer of a non-contiguous one).  Where UCX
 * mapped the region here, a copy (the release store of the flag or stamp
 * after it orders it); otherwise a put and a fence, since data and flag go
 * into one region over one lane, where a fence orders them. */
static inline int match_ucx_write_data(mca_match_ucx_half_t *req, const void *src, size_t off)
{
    if (OPAL_LIKELY(NULL != req->peer_ptr)) {
        if (OPAL_LIKELY(req->super.contiguous)) {
            mca_match_base_copy_small(req->peer_ptr + off, src, req->super.bytes);
        } else {
            mca_match_base_channel_pack(&req->super.convertor, req->peer_ptr + off,
                                        req->super.bytes);
        }
        return MPI_SUCCESS;
    }
    return match_ucx_write_data_put(req, src, off);
}

/* lock held: the send of message m, once the grant it needs is there */
static bool match_ucx_send_advance(mca_match_ucx_half_t *req, uint64_t m)
{
    if (0 == req->stage) {
        void *src = req->super.contiguous ? (void *) req->super.cptr : (void *) req->bounce;
        /* the receive that must have started: message m overwrites the
         * line or entry of a message whose receive has completed */
        uint64_t ahead = req->inline_msg ? MCA_MATCH_UCX_INLINE_DEPTH - 1
                         : req->eager    ? MCA_MATCH_UCX_DEPTH - 1
                                         : 0;
        uint64_t need = m > ahead ? m - ahead : 0;

        if (!match_ucx_granted(req, need)) {
            return false;
        }
        req->count = m;
        if (!req->eager) {
            if (!req->super.contiguous) {
                mca_match_base_channel_pack(&req->super.convertor, req->bounce, req->super.bytes);
            }
            /* the receiver posted its tag receive before granting m */
            if (MPI_SUCCESS != match_ucx_tag_op(req, 0, src)) {
                return true;
            }
        } else if (req->inline_msg) {
            size_t line = MCA_MATCH_UCX_LINE * (1 + (m - 1) % MCA_MATCH_UCX_INLINE_DEPTH);
            size_t data = line + MCA_MATCH_UCX_STAMP_BYTES;
            uint64_t stamp = match_ucx_stamp(req->peer_gen, m);

            /* data and stamp in one line: one line moves */
            if (0 < req->super.bytes && MPI_SUCCESS != match_ucx_write_data(req, src, data)) {
                return true;
            }
            if (MPI_SUCCESS != match_ucx_put_word(req, 1, line, stamp)) {
                return true;
            }
        } else {
            size_t at = MCA_MATCH_UCX_RING_AT + ((m - 1) % MCA_MATCH_UCX_DEPTH) * req->entry;

            if (0 < req->super.bytes && MPI_SUCCESS != match_ucx_write_data(req, src, at)) {
                return true;
            }
            if (MPI_SUCCESS != match_ucx_put_word(req, 1, 0, req->peer_gen | req->count)) {
                return true;
            }
        }
        req->stage = 2;
    }
    if (!match_ucx_ops_done(req)) {
        return false;
    }
    /* a synchronous send completes once its receive has started */
    return !req->super.sync || match_ucx_granted(req, req->count);
}

/* lock held: the receive of message m */
static bool match_ucx_recv_advance(mca_match_ucx_half_t *req, uint64_t m)
{
    if (0 == req->stage) {
        if (!req->eager
            && MPI_SUCCESS
                   != match_ucx_tag_op(req, 1,
                                       req->super.contiguous ? (void *) req->super.cptr
                                                       : (void *) req->bounce)) {
            return true;
        }
        if (req->granted < m) {
            req->granted = m;
            if (MPI_SUCCESS != match_ucx_put_word(req, 0, 0, req->peer_gen | m)) {
                return true;
            }
        }
        req->stage = 1;
    }
    if (1 == req->stage) {
        if (req->eager) {
            if (!match_ucx_arrived(req, m)) {
                return false;
            }
            if (0 < req->super.bytes && req->inline_msg) {
                match_ucx_unpack(req, match_ucx_line(req, m) + MCA_MATCH_UCX_STAMP_BYTES);
            } else if (0 < req->super.bytes) {
                match_ucx_unpack(req, req->ring + ((m - 1) % MCA_MATCH_UCX_DEPTH) * req->entry);
            }
        } else {
            if (NULL != req->ops[1]) {
                ucs_status_t status = ucp_request_check_status(req->ops[1]);

                if (UCS_INPROGRESS == status) {
                    return false;
                }
                if (UCS_OK != status) {
                    MCA_MATCH_BASE_CHAN_STATUS(&req->super) = MPI_ERR_OTHER;
                }
                ucp_request_free(req->ops[1]);
                req->ops[1] = NULL;
            }
            if (!req->super.contiguous) {
                match_ucx_unpack(req, req->bounce);
            }
        }
        req->count = m;
        req->stage = 2;
    }
    return match_ucx_ops_done(req);
}

/* lock held: move what can be moved.  Returns true when the request is
 * complete. */
static bool match_ucx_advance(mca_match_ucx_half_t *req)
{
    uint64_t m = req->count + 1;

    return req->super.is_send ? match_ucx_send_advance(req, m) : match_ucx_recv_advance(req, m);
}

static inline bool match_ucx_poll(mca_match_base_chan_half_t *half)
{
    return match_ucx_advance((mca_match_ucx_half_t *) half);
}

static inline void match_ucx_reset(mca_match_base_chan_half_t *half)
{
    ((mca_match_ucx_half_t *) half)->stage = 0;
}

/* lock held: the worker is progressed once it exists: a peer's puts over a
 * transport without shared memory need this side's worker, also to
 * acknowledge puts of channels freed since */
static int match_ucx_transport(void)
{
    if (mca_match_base_chan_is_open(&mca_match_ucx_chan)) {
        (void) ucp_worker_progress(mca_match_ucx_worker());
    }
    return 0;
}

/* A receive whose message has not arrived can be cancelled (its grant
 * stands: the message goes to the next start, into the ring or to the tag
 * receive that start posts); a send cannot (its data may be on its way).
 * A rendezvous receive is cancelled when UCX can cancel its tag receive,
 * which it can until a message matched it. */
static bool match_ucx_cancel(mca_match_base_chan_half_t *half)
{
    mca_match_ucx_half_t *req = (mca_match_ucx_half_t *) half;
    bool cancelled = false;

    if (!half->is_send && 2 > req->stage) {
        if (req->eager) {
            cancelled = !match_ucx_arrived(req, req->count + 1);
        } else if (NULL != req->ops[1]) {
            ucp_request_cancel(mca_match_ucx_worker(), req->ops[1]);
            cancelled = UCS_ERR_CANCELED == ucp_request_check_status(req->ops[1]);
        }
    }
    if (cancelled) {
        match_ucx_drop_ops(req);
    }
    return cancelled;
}

/* The peer is gone: UCX completes or fails the operations in flight on
 * its own. */
static void match_ucx_abort(mca_match_base_chan_half_t *half)
{
    match_ucx_drop_ops((mca_match_ucx_half_t *) half);
}

/* UCX is only called under the lock */
static const mca_match_base_chan_stages_t match_ucx_stages
    = MCA_MATCH_BASE_CHAN_STAGES(match_ucx_reset, match_ucx_poll, match_ucx_poll,
                                 match_ucx_cancel, match_ucx_abort, NULL, match_ucx_transport,
                                 true);

mca_match_base_chan_t mca_match_ucx_chan = MCA_MATCH_BASE_CHAN_INIT("ucx", &mca_match_ucx_lock,
                                                                    &match_ucx_stages,
                                                                    mca_match_ucx_progress);

MCA_MATCH_BASE_CHAN_DEFINE(match_ucx, mca_match_ucx_chan, match_ucx_stages,
                           mca_match_ucx_progress, mca_match_ucx_channel_ops, NULL);
