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
 * The two halves of an ofi channel, run on the matched requests themselves:
 * a half is the channel's state for one side of a pair, not a request, so
 * a start and its completion touch the program's request alone (its
 * req_start, once matched, is match_ofi_start).
 *
 * Receive m: stage 0 injects the grant (zero bytes into the sender's
 * doorbell, the sender's slot as completion data); stage 1 waits until
 * the own slot has counted m writes of the sender, then unpacks a bounce
 * buffer.  Send m: stage 0 waits until the own slot has counted m grants
 * (and no earlier write of the slot is in flight), and packs a
 * non-contiguous message; stage 1 posts the write of the message into the
 * receiver's buffer, the receiver's slot as completion data; stage 2 waits
 * for the local completion of a write that was not injected.
 *
 * On a pair with a receive ring (match_ofi.h) the send's stage 0 waits
 * for the ring's entry instead (m <= K + grants x K / 2), the write goes
 * to that entry with its position in the data, the receive grants only
 * at every K / 2-th start and its stage 1 waits for its entry's bit in
 * the slot, then copies the entry out.
 *
 * A send armed as a triggered write (match_ofi_arm, match_ofi.h) is
 * posted before its start; the start bumps the slot's counter and waits at
 * stage 2 for the write's local completion, like a write posted at the
 * start.  An armed send released unstarted is cancelled (fi_cancel): its
 * slot waits for the cancelled write's completion entry.
 *
 * A post the provider refuses for now (-FI_EAGAIN: a full queue, or a
 * connection still being made) leaves the request at its stage on the
 * active list, and the progress callback, which reads the completion
 * queue first, posts it again.  libfabric is only called under
 * mca_match_ofi_lock; completions run after the lock is dropped, since a
 * completion may start another matched request.
 */

#include "ompi_config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <rdma/fi_errno.h>
#include <rdma/fi_eq.h>

#include "opal/datatype/opal_convertor.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_request.h"
#include "ompi/mca/match/ofi/match_ofi.h"

#define MATCH_OFI_CQ_BATCH 16
#define MATCH_OFI_CQ_ROUNDS 4

/* the source of zero-byte writes (grants, empty messages) */
static uint64_t match_ofi_zero = 0;

static void match_ofi_half_construct(mca_match_ofi_half_t *req)
{
    memset(&req->peer, 0, sizeof(*req) - offsetof(mca_match_ofi_half_t, peer));
    req->peer = FI_ADDR_NOTAVAIL;
}

static void match_ofi_half_destruct(mca_match_ofi_half_t *req)
{
    OPAL_THREAD_LOCK(&mca_match_ofi_lock);
    if (mca_match_base_chan_is_open(&mca_match_ofi_chan) && req->armed && req->has_slot) {
        /* never set off: take the triggered write back; its completion
         * (cancelled) frees the slot */
        (void) fi_cancel(&mca_match_ofi_ep()->fid, &mca_match_ofi_slot(req->slot)->ctx);
        req->armed = false;
    }
    if (mca_match_base_chan_is_open(&mca_match_ofi_chan)) {
        if (req->has_slot) {
            /* the slot closes the registration and frees the bounce
             * buffer, at once or when a write from them completes */
            mca_match_ofi_slot_release(req->slot,
                                       NULL != req->ring_buf ? (void *) req->ring_buf
                                                             : (void *) req->bounce,
                                       req->mr);
            req->bounce = NULL;
            req->ring_buf = NULL;
        } else if (NULL != req->mr) {
            (void) fi_close(&req->mr->fid);
        }
        req->mr = NULL;
    }
    OPAL_THREAD_UNLOCK(&mca_match_ofi_lock);
    free(req->bounce);
    free(req->ring_buf);
}

OBJ_CLASS_INSTANCE(mca_match_ofi_half_t, mca_match_base_chan_half_t, match_ofi_half_construct,
                   match_ofi_half_destruct);

/* lock held: a post's outcome.  Returns true when the post is done with
 * (posted, or failed for good: MCA_MATCH_BASE_CHAN_STATUS(&req->super) says), false to try again. */
static bool match_ofi_posted(mca_match_ofi_half_t *req, ssize_t ret, const char *what)
{
    if (OPAL_LIKELY(0 == ret)) {
        return true;
    }
    if (-FI_EAGAIN == ret) {
        return false;
    }
    opal_output_verbose(
        MCA_BASE_VERBOSE_ERROR, OMPI_MATCH_BASE_OUTPUT, "match:ofi: %s of %zu bytes failed: %s",
        what, req->super.is_send ? req->super.bytes : (size_t) 0, fi_strerror((int) -ret));
    MCA_MATCH_BASE_CHAN_STATUS(&req->super) = MPI_ERR_OTHER;
    return true;
}

/* lock held: the message's write into the receiver's buffer, with the
 * receiver's slot as completion data.  A write that is not injected
 * completes once transmitted (FI_TRANSMIT_COMPLETE): the source may be
 * reused then, and the write no longer depends on this endpoint, so that
 * a process may close it once its sends are complete; the receiver learns
 * of the data from its own completion entry, which the provider writes
 * once the data is placed. */
static ssize_t match_ofi_write(mca_match_ofi_half_t *req, mca_match_ofi_slot_t *slot,
                               bool triggered)
{
    const void *src = 0 == req->super.bytes  ? (const void *) &match_ofi_zero
                      : req->super.contiguous ? (const void *) req->super.cptr
                                        : (const void *) req->bounce;
    struct iovec iov;
    struct fi_rma_iov rma;
    struct fi_msg_rma msg;
    void *desc = req->desc;
    uint64_t addr = req->peer_addr, data = req->peer_data;

    if (0 != req->ring) {
        /* message m (count + 1) into its ring entry, the position named */
        uint64_t pos = req->count % req->ring;

        addr += pos * req->stride;
        data |= pos << MCA_MATCH_OFI_INDEX_BITS;
    }
    if (req->inject && !triggered) {
        return fi_inject_writedata(mca_match_ofi_ep(), src, req->super.bytes, data, req->peer, addr,
                                   req->peer_key);
    }
    iov.iov_base = (void *) src;
    iov.iov_len = req->super.bytes;
    rma.addr = addr;
    rma.len = req->super.bytes;
    rma.key = req->peer_key;
    memset(&msg, 0, sizeof(msg));
    msg.msg_iov = &iov;
    msg.desc = &desc;
    msg.iov_count = 1;
    msg.addr = req->peer;
    msg.rma_iov = &rma;
    msg.rma_iov_count = 1;
    msg.context = &slot->ctx;
    msg.data = data;
    if (triggered) {
        /* set off when the slot's counter of grants and starts reaches
         * message m's grant plus this start */
        memset(&slot->ctx.trig, 0, sizeof(slot->ctx.trig));
        slot->ctx.trig.event_type = FI_TRIGGER_THRESHOLD;
        slot->ctx.trig.trigger.threshold.cntr = slot->trig_cntr;
        slot->ctx.trig.trigger.threshold.threshold = (size_t) (req->count + 1 + slot->fires + 1);
    }
    return fi_writemsg(mca_match_ofi_ep(), &msg,
                       FI_REMOTE_CQ_DATA | FI_COMPLETION | FI_TRANSMIT_COMPLETE
                           | (triggered ? FI_TRIGGER : 0));
}

/* lock held: the send of message m */
static bool match_ofi_send_advance(mca_match_ofi_half_t *req, uint64_t m)
{
    mca_match_ofi_slot_t *slot = mca_match_ofi_slot(req->slot);

    if (0 == req->stage) {
        /* the slot's context is free once an aborted start's write
         * completed; in a ring, entry m's last message (m - K) is consumed
         * once the grants cover it */
        if ((0 == req->ring ? slot->remote < m : m > req->ring + slot->remote * (req->ring / 2))
            || slot->in_flight) {
            return false;
        }
        if (!req->super.contiguous && 0 < req->super.bytes) {
            mca_match_base_channel_pack(&req->super.convertor, req->bounce, req->super.bytes);
        }
        req->stage = 1;
    }
    if (1 == req->stage) {
        if (!match_ofi_posted(req, match_ofi_write(req, slot, false), "write")) {
            return false;
        }
        req->count = m;
        if (MPI_SUCCESS != MCA_MATCH_BASE_CHAN_STATUS(&req->super) || req->inject) {
            return true;
        }
        slot->in_flight = true;
        req->stage = 2;
    }
    /* the completion handler clears in_flight (and sets status on error) */
    return !slot->in_flight;
}

/* lock held: the receive of message m */
static bool match_ofi_recv_advance(mca_match_ofi_half_t *req, uint64_t m)
{
    mca_match_ofi_slot_t *slot = mca_match_ofi_slot(req->slot);
    uint64_t bit;
    unsigned char *entry;

    if (0 == req->stage) {
        /* a ring is granted once per half ring: receives m - K / 2 .. m - 1
         * are consumed */
        if (0 == req->ring || (1 < m && 0 == (m - 1) % (req->ring / 2))) {
            ssize_t ret = fi_inject_writedata(mca_match_ofi_ep(), &match_ofi_zero, 0,
                                              req->peer_data, req->peer, req->peer_addr,
                                              req->peer_key);

            if (!match_ofi_posted(req, ret, "grant")) {
                return false;
            }
            if (MPI_SUCCESS != MCA_MATCH_BASE_CHAN_STATUS(&req->super)) {
                return true;
            }
        }
        req->stage = 1;
    }
    if (0 == req->ring) {
        if (slot->remote < m) {
            return false;
        }
        if (!req->super.contiguous && 0 < req->super.bytes) {
            mca_match_base_channel_unpack(&req->super.convertor, req->bounce, req->super.bytes);
        }
    } else {
        bit = UINT64_C(1) << ((m - 1) % req->ring);
        if (0 == (slot->arrived & bit)) {
            return false;
        }
        entry = req->ring_buf + ((m - 1) % req->ring) * req->stride;
        if (0 == req->super.bytes) {
            /* the completion data alone */
        } else if (req->super.contiguous) {
            memcpy(req->super.cptr, entry, req->super.bytes);
        } else {
            mca_match_base_channel_unpack(&req->super.convertor, entry, req->super.bytes);
        }
        slot->arrived &= ~bit;
    }
    req->count = m;
    return true;
}

/* lock held: move what can be moved.  Returns true when the request is
 * complete. */
static bool match_ofi_advance(mca_match_ofi_half_t *req)
{
    uint64_t m = req->count + 1;

    return req->super.is_send ? match_ofi_send_advance(req, m) : match_ofi_recv_advance(req, m);
}

/* lock held: set off an armed send (the counter's bump is the start);
 * it then waits at stage 2 for the write's local completion */
static bool match_ofi_fire(mca_match_ofi_half_t *req)
{
    mca_match_ofi_slot_t *slot = mca_match_ofi_slot(req->slot);
    int ret;

    req->armed = false;
    req->count++;
    req->stage = 2;
    ret = fi_cntr_add(slot->trig_cntr, 1);
    if (OPAL_UNLIKELY(0 != ret)) {
        opal_output_verbose(MCA_BASE_VERBOSE_ERROR, OMPI_MATCH_BASE_OUTPUT,
                            "match:ofi: fi_cntr_add failed: %s", fi_strerror(-ret));
        MCA_MATCH_BASE_CHAN_STATUS(&req->super) = MPI_ERR_OTHER;
        (void) fi_cancel(&mca_match_ofi_ep()->fid, &slot->ctx);
    } else {
        mca_match_ofi_component.triggered_starts++;
    }
    return !slot->in_flight;
}

static inline void match_ofi_reset(mca_match_base_chan_half_t *half)
{
    ((mca_match_ofi_half_t *) half)->stage = 0;
}

/* lock held: a start */
static inline bool match_ofi_post(mca_match_base_chan_half_t *half)
{
    mca_match_ofi_half_t *req = (mca_match_ofi_half_t *) half;

    if (OPAL_UNLIKELY(!mca_match_base_chan_is_open(&mca_match_ofi_chan) || !req->has_slot)) {
        /* the component was finalized under the program's request */
        MCA_MATCH_BASE_CHAN_STATUS(half) = MPI_ERR_OTHER;
        return true;
    }
    if (req->armed) {
        return match_ofi_fire(req);
    }
    return match_ofi_advance(req);
}

static inline bool match_ofi_poll(mca_match_base_chan_half_t *half)
{
    return match_ofi_advance((mca_match_ofi_half_t *) half);
}

/* A send that its queue starts later: post it now as a triggered write
 * (match_ofi.h).  Not where the data must be packed at the start (a
 * non-contiguous send), nor a small send whose source the provider wants
 * registered (injected sends register none), nor while the previous
 * start's transfer is still under way (the queue may enqueue the next
 * start behind its wait): the threshold counts from the messages done, and
 * the slot has one context. */
static bool match_ofi_arm(mca_match_request_t *owner)
{
    mca_match_ofi_half_t *req = (mca_match_ofi_half_t *) owner->mr_chan;
    mca_match_ofi_slot_t *slot;
    bool armed = false;
    ssize_t ret;

    /* every enqueue behind earlier work asks: where the provider has no
     * triggered writes, answer without the lock */
    if (!req->super.is_send || !mca_match_ofi_triggered()
        || (!req->super.contiguous && 0 < req->super.bytes)) {
        return false;
    }
    if (req->inject && 0 < req->super.bytes && mca_match_ofi_mr_local()) {
        /* a triggered write is posted, not injected: its source needs the
         * registration that an injected send never made */
        return false;
    }
    OPAL_THREAD_LOCK(&mca_match_ofi_lock);
    if (mca_match_base_chan_is_open(&mca_match_ofi_chan) && req->has_slot && !req->armed
        && !mca_match_base_plist_has(&mca_match_ofi_chan.active, req, MCA_MATCH_BASE_CHAN_ITEM)) {
        slot = mca_match_ofi_slot(req->slot);
        if (NULL != slot->trig_bell_mr && !slot->in_flight) {
            ret = match_ofi_write(req, slot, true);
            if (0 == ret) {
                slot->in_flight = true;
                slot->fires++;
                req->armed = true;
                armed = true;
            } else if (-FI_EAGAIN != ret) {
                opal_output_verbose(MCA_BASE_VERBOSE_INFO, OMPI_MATCH_BASE_OUTPUT,
                                    "match:ofi: a triggered write was refused (%s): the start "
                                    "writes",
                                    fi_strerror((int) -ret));
            }
        }
    }
    OPAL_THREAD_UNLOCK(&mca_match_ofi_lock);
    if (armed) {
        opal_output_verbose(MCA_BASE_VERBOSE_TRACE, OMPI_MATCH_BASE_OUTPUT,
                            "match:ofi: send in slot %u armed as a triggered write", req->slot);
    }
    return armed;
}

/* lock held: one completion entry.  A local completion carries the
 * context of the slot whose write it ends (told apart by the context, not
 * by the flags: a provider may echo FI_REMOTE_CQ_DATA in the local
 * completion of a write that carried data).  A peer's write has no
 * context and carries the data that names one of this process's slots: a
 * grant for a send half, a message for a receive half, counted in the
 * slot (a write naming a generation gone is ignored). */
static void match_ofi_dispatch(const struct fi_cq_data_entry *entry)
{
    mca_match_ofi_slot_t *slot;
    uint32_t pos;

    if (NULL != entry->op_context) {
        slot = mca_match_ofi_slot_of_context(entry->op_context);
        if (NULL != slot && slot->in_flight) {
            mca_match_ofi_slot_done(slot);
        }
        return;
    }
    if (0 == (entry->flags & FI_REMOTE_CQ_DATA)) {
        return;
    }
    slot = mca_match_ofi_slot_of_data(entry->data, &pos);
    if (NULL != slot) {
        slot->remote++;
        slot->arrived |= UINT64_C(1) << pos;
    } else {
        opal_output_verbose(MCA_BASE_VERBOSE_TRACE, OMPI_MATCH_BASE_OUTPUT,
                            "match:ofi: a write for slot %llu of a channel gone is ignored",
                            (unsigned long long) (entry->data & MCA_MATCH_OFI_INDEX_MASK));
    }
}

/* lock held: an error entry; the write it names completes in error */
static void match_ofi_dispatch_error(struct fid_cq *cq)
{
    struct fi_cq_err_entry err;
    mca_match_ofi_slot_t *slot;

    memset(&err, 0, sizeof(err));
    if (1 != fi_cq_readerr(cq, &err, 0)) {
        return;
    }
    opal_output_verbose(MCA_BASE_VERBOSE_ERROR, OMPI_MATCH_BASE_OUTPUT,
                        "match:ofi: %s failed: %s (%s)",
                        0 != (err.flags & FI_REMOTE_WRITE) ? "a peer's write" : "a write",
                        fi_strerror(err.err),
                        fi_cq_strerror(cq, err.prov_errno, err.err_data, NULL, 0));
    slot = mca_match_ofi_slot_of_context(err.op_context);
    if (NULL != slot && slot->in_flight) {
        if (NULL != slot->half) {
            MCA_MATCH_BASE_CHAN_STATUS(&slot->half->super) = MPI_ERR_OTHER;
        }
        mca_match_ofi_slot_done(slot);
    }
}

/* lock held: what the completion queue holds, a bounded amount per call */
static int match_ofi_read_cq(void)
{
    struct fid_cq *cq = mca_match_ofi_cq();
    struct fi_cq_data_entry entry[MATCH_OFI_CQ_BATCH];
    int events = 0;

    for (int round = 0; round < MATCH_OFI_CQ_ROUNDS; ++round) {
        ssize_t n = fi_cq_read(cq, entry, MATCH_OFI_CQ_BATCH);

        if (0 < n) {
            for (ssize_t i = 0; i < n; ++i) {
                match_ofi_dispatch(&entry[i]);
            }
            events += (int) n;
            if (MATCH_OFI_CQ_BATCH > n) {
                break;
            }
        } else if (-FI_EAVAIL == n) {
            match_ofi_dispatch_error(cq);
            ++events;
        } else {
            /* -FI_EAGAIN: empty */
            break;
        }
    }
    return events;
}

/* lock held: the queue is read while the endpoint is open, with nothing
 * active too: over providers that progress only when called, the peers'
 * connections, the writes this process injected and those aimed at it
 * move from here */
static int match_ofi_transport(void)
{
    return mca_match_base_chan_is_open(&mca_match_ofi_chan) ? match_ofi_read_cq() : 0;
}

/* Neither half can be cancelled once started (cancel NULL): a started
 * receive has granted its sender, which may write into the buffer at any
 * moment (a grant cannot be taken back), or in a ring its message may be
 * there already and is the next one's predecessor; a send's write may be
 * on its way.  The request is left to complete (MPI allows a cancel to
 * fail).
 *
 * On abort (the peer is gone: its grant or its data will never come), a
 * write in flight keeps the slot, with its source, until the provider
 * completes it: nothing to drop (abort NULL).
 *
 * libfabric is only called under the lock. */
static const mca_match_base_chan_stages_t match_ofi_stages
    = MCA_MATCH_BASE_CHAN_STAGES(match_ofi_reset, match_ofi_post, match_ofi_poll, NULL, NULL,
                                 NULL, match_ofi_transport, true);

mca_match_base_chan_t mca_match_ofi_chan = MCA_MATCH_BASE_CHAN_INIT("ofi", &mca_match_ofi_lock,
                                                                    &match_ofi_stages,
                                                                    mca_match_ofi_progress);

MCA_MATCH_BASE_CHAN_DEFINE(match_ofi, mca_match_ofi_chan, match_ofi_stages,
                           mca_match_ofi_progress, mca_match_ofi_channel_ops, match_ofi_arm);
