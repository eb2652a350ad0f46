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
 * The two halves of a channel, run on the matched requests themselves: a
 * half is the channel's state for one side of a pair, not a request, so a
 * start and its completion touch the program's request alone (its
 * req_start, once matched, is match_sm_start).  A start moves what
 * it can at once (a send of a small message is a copy and a store; a
 * receive whose message is there is a copy and a store) and otherwise goes
 * on the active list, the only thing the progress callback looks at: idle
 * channels cost nothing.  A request on the list is touched only by the
 * progress callback, under the lock; completions run after the lock is
 * dropped, since a completion may start another matched request.
 *
 * A standard, ready or buffered send completes when its last chunk is in
 * the ring; a synchronous send, and a send read by single copy, when the
 * receiver has consumed it (which it does only once started).
 */

#include "ompi_config.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>

#include "opal/datatype/opal_convertor.h"
#include "opal/runtime/opal_progress.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_request.h"
#include "ompi/mca/match/sm/match_sm.h"
#include "ompi/proc/proc.h"

static void match_sm_half_construct(mca_match_sm_half_t *req)
{
    req->slot = NULL;
    req->count = req->peer_count = 0;
}

OBJ_CLASS_INSTANCE(mca_match_sm_half_t, mca_match_base_chan_half_t, match_sm_half_construct,
                   NULL);

static inline unsigned char *match_sm_chunk_at(const mca_match_sm_half_t *req, uint64_t n)
{
    return req->ring + (n % req->depth) * req->chunk;
}

/* the stamped line of message n (inline: depth is a power of two, so
 * that no division is on the path of a small message) */
static inline volatile uint64_t *match_sm_line_at(const mca_match_sm_half_t *req, uint64_t n)
{
    return (volatile uint64_t *) (req->ring + (n & (req->depth - 1)) * MCA_MATCH_SM_LINE);
}

static void match_sm_pack(mca_match_sm_half_t *req, unsigned char *dst, size_t len)
{
    struct iovec iov = {.iov_base = dst, .iov_len = len};
    uint32_t iov_count = 1;
    size_t max_data = len;

    if (req->super.contiguous) {
        memcpy(dst, req->super.cptr + req->offset, len);
    } else {
        (void) opal_convertor_pack(&req->super.convertor, &iov, &iov_count, &max_data);
    }
}

static int match_sm_unpack(mca_match_sm_half_t *req, unsigned char *src, size_t len)
{
    struct iovec iov = {.iov_base = src, .iov_len = len};
    uint32_t iov_count = 1;
    size_t max_data = len;

    if (req->cma) {
#if OMPI_MATCH_SM_HAVE_CMA
        struct iovec local = {.iov_base = req->super.cptr, .iov_len = len};
        struct iovec remote = {.iov_base = (void *) (uintptr_t) req->cma_addr, .iov_len = len};
        size_t got = 0;

        while (got < len) {
            ssize_t n;
            local.iov_base = req->super.cptr + got;
            local.iov_len = len - got;
            remote.iov_base = (unsigned char *) (uintptr_t) req->cma_addr + got;
            remote.iov_len = len - got;
            n = process_vm_readv(req->cma_pid, &local, 1, &remote, 1, 0);
            if (0 >= n) {
                if (0 > n && EINTR == errno) {
                    continue;
                }
                return MPI_ERR_OTHER;
            }
            got += (size_t) n;
        }
#endif
        return MPI_SUCCESS;
    }
    if (req->super.contiguous) {
        memcpy(req->super.cptr + req->offset, src, len);
    } else {
        (void) opal_convertor_unpack(&req->super.convertor, &iov, &iov_count, &max_data);
    }
    return MPI_SUCCESS;
}

/* A message in one stamped line.  Returns true when the request is
 * complete. */
static inline bool match_sm_advance_inline(mca_match_sm_half_t *req)
{
    mca_match_sm_slot_t *slot = req->slot;
    volatile uint64_t *line = match_sm_line_at(req, req->count);

    if (req->super.is_send) {
        if (0 == req->done) {
            if (req->count - req->peer_count >= req->depth) {
                req->peer_count = __atomic_load_n(&slot->ack, __ATOMIC_ACQUIRE);
                if (req->count - req->peer_count >= req->depth) {
                    return false;
                }
            }
            if (0 < req->super.bytes) {
                if (OPAL_LIKELY(req->super.contiguous)) {
                    mca_match_base_copy_small((unsigned char *) (line + 1), req->super.cptr,
                                              req->super.bytes);
                } else {
                    match_sm_pack(req, (unsigned char *) (line + 1), req->super.bytes);
                }
            }
            req->done = 1;
            __atomic_store_n(line, ++req->count, __ATOMIC_RELEASE);
        }
        if (req->super.sync && req->peer_count < req->count) {
            req->peer_count = __atomic_load_n(&slot->ack, __ATOMIC_ACQUIRE);
            return req->peer_count >= req->count;
        }
        return true;
    }
    if (__atomic_load_n(line, __ATOMIC_ACQUIRE) != req->count + 1) {
        return false;
    }
    if (0 < req->super.bytes) {
        if (OPAL_LIKELY(req->super.contiguous)) {
            mca_match_base_copy_small(req->super.cptr, (unsigned char *) (line + 1),
                                      req->super.bytes);
        } else {
            (void) match_sm_unpack(req, (unsigned char *) (line + 1), req->super.bytes);
        }
    }
    req->done = 1;
    __atomic_store_n(&slot->ack, ++req->count, __ATOMIC_RELEASE);
    return true;
}

/* A message through the chunk ring, or by single copy.  Returns true when
 * the request is complete. */
static bool match_sm_advance_chunks(mca_match_sm_half_t *req)
{
    mca_match_sm_slot_t *slot = req->slot;

    if (req->super.is_send) {
        while (req->done < req->nchunks) {
            size_t len = req->super.bytes - req->offset < req->chunk
                             ? req->super.bytes - req->offset
                             : req->chunk;
            if (req->count - req->peer_count >= req->depth) {
                req->peer_count = __atomic_load_n(&slot->ack, __ATOMIC_ACQUIRE);
                if (req->count - req->peer_count >= req->depth) {
                    return false;
                }
            }
            if (!req->cma && 0 < len) {
                match_sm_pack(req, match_sm_chunk_at(req, req->count), len);
            }
            req->offset += len;
            req->done++;
            __atomic_store_n(&slot->seq, ++req->count, __ATOMIC_RELEASE);
        }
        if (req->super.sync || req->cma) {
            if (req->peer_count < req->count) {
                req->peer_count = __atomic_load_n(&slot->ack, __ATOMIC_ACQUIRE);
            }
            return req->peer_count >= req->count;
        }
        return true;
    }

    while (req->done < req->nchunks) {
        size_t len = req->super.bytes - req->offset < req->chunk ? req->super.bytes - req->offset
                                                            : req->chunk;
        int err;

        if (req->peer_count == req->count) {
            req->peer_count = __atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE);
            if (req->peer_count == req->count) {
                return false;
            }
        }
        err = (0 < len || req->cma) ? match_sm_unpack(req, match_sm_chunk_at(req, req->count),
                                                      len)
                                    : MPI_SUCCESS;
        if (MPI_SUCCESS != err) {
            MCA_MATCH_BASE_CHAN_STATUS(&req->super) = err;
        }
        req->offset += len;
        req->done++;
        __atomic_store_n(&slot->ack, ++req->count, __ATOMIC_RELEASE);
    }
    return true;
}

/* Move what can be moved.  Returns true when the request is complete. */
static inline bool match_sm_advance(mca_match_sm_half_t *req)
{
    return OPAL_LIKELY(req->inl) ? match_sm_advance_inline(req) : match_sm_advance_chunks(req);
}

/* the start of a message */
static inline void match_sm_reset(mca_match_base_chan_half_t *half)
{
    mca_match_sm_half_t *req = (mca_match_sm_half_t *) half;

    req->done = 0;
    req->offset = 0;
    if (!req->super.contiguous) {
        size_t zero = 0;
        (void) opal_convertor_set_position(&req->super.convertor, &zero);
    }
}

static inline bool match_sm_poll(mca_match_base_chan_half_t *half)
{
    return match_sm_advance((mca_match_sm_half_t *) half);
}

/* A receive that has moved nothing of its message can be cancelled; a
 * send cannot (its message may already be in the ring). */
static bool match_sm_cancel(mca_match_base_chan_half_t *half)
{
    return !half->is_send && 0 == ((mca_match_sm_half_t *) half)->done;
}

static void match_sm_release(mca_match_base_chan_half_t *half)
{
    mca_match_sm_half_t *req = (mca_match_sm_half_t *) half;

    if (NULL != req->slot) {
        if (half->is_send) {
            mca_match_sm_segment_slot_closed(req->slot_index);
        } else {
            __atomic_store_n(&req->slot->receiver_closed, 1, __ATOMIC_RELEASE);
        }
    }
}

/* a start moves what it can without the lock: the half is not listed yet */
static const mca_match_base_chan_stages_t match_sm_stages
    = MCA_MATCH_BASE_CHAN_STAGES(match_sm_reset, match_sm_poll, match_sm_poll, match_sm_cancel,
                                 NULL, match_sm_release, NULL, false);

mca_match_base_chan_t mca_match_sm_chan = MCA_MATCH_BASE_CHAN_INIT("sm", &mca_match_sm_lock,
                                                                   &match_sm_stages,
                                                                   mca_match_sm_progress);

MCA_MATCH_BASE_CHAN_DEFINE(match_sm, mca_match_sm_chan, match_sm_stages, mca_match_sm_progress,
                           mca_match_sm_channel_ops, NULL);
