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

#define MATCH_SM_DONE_BATCH 32

static mca_match_sm_half_t *match_sm_active = NULL;
static volatile int32_t match_sm_nactive = 0;

static void match_sm_request_construct(mca_match_sm_half_t *req)
{
    req->owner = NULL;
    req->next = req->prev = NULL;
    req->slot = NULL;
    req->datatype = NULL;
    req->count = req->peer_count = 0;
    OBJ_CONSTRUCT(&req->convertor, opal_convertor_t);
}

static void match_sm_request_destruct(mca_match_sm_half_t *req)
{
    OBJ_DESTRUCT(&req->convertor);
    if (NULL != req->datatype) {
        OMPI_DATATYPE_RELEASE(req->datatype);
    }
}

OBJ_CLASS_INSTANCE(mca_match_sm_half_t, opal_object_t, match_sm_request_construct,
                   match_sm_request_destruct);

mca_match_sm_half_t *mca_match_sm_half_new(mca_match_request_t *owner, bool is_send)
{
    mca_match_sm_half_t *req = OBJ_NEW(mca_match_sm_half_t);
    int ret;

    if (NULL == req) {
        return NULL;
    }
    req->owner = owner;
    req->is_send = is_send;
    /* the matched request's original request, which held the datatype, is freed */
    ret = mca_match_base_channel_side_prepare(is_send, owner->mr_desc.buf, owner->mr_desc.count,
                                              owner->mr_desc.datatype, &req->datatype,
                                              &req->contiguous, &req->cptr, &req->convertor);
    if (OMPI_SUCCESS != ret) {
        OBJ_RELEASE(req);
        return NULL;
    }
    return req;
}

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

    if (req->contiguous) {
        memcpy(dst, req->cptr + req->offset, len);
    } else {
        (void) opal_convertor_pack(&req->convertor, &iov, &iov_count, &max_data);
    }
}

static int match_sm_unpack(mca_match_sm_half_t *req, unsigned char *src, size_t len)
{
    struct iovec iov = {.iov_base = src, .iov_len = len};
    uint32_t iov_count = 1;
    size_t max_data = len;

    if (req->cma) {
#if OMPI_MATCH_SM_HAVE_CMA
        struct iovec local = {.iov_base = req->cptr, .iov_len = len};
        struct iovec remote = {.iov_base = (void *) (uintptr_t) req->cma_addr, .iov_len = len};
        size_t got = 0;

        while (got < len) {
            ssize_t n;
            local.iov_base = req->cptr + got;
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
    if (req->contiguous) {
        memcpy(req->cptr + req->offset, src, len);
    } else {
        (void) opal_convertor_unpack(&req->convertor, &iov, &iov_count, &max_data);
    }
    return MPI_SUCCESS;
}

/* A message in one stamped line.  Returns true when the request is
 * complete. */
static inline bool match_sm_advance_inline(mca_match_sm_half_t *req)
{
    mca_match_sm_slot_t *slot = req->slot;
    volatile uint64_t *line = match_sm_line_at(req, req->count);

    if (req->is_send) {
        if (0 == req->done) {
            if (req->count - req->peer_count >= req->depth) {
                req->peer_count = __atomic_load_n(&slot->ack, __ATOMIC_ACQUIRE);
                if (req->count - req->peer_count >= req->depth) {
                    return false;
                }
            }
            if (0 < req->bytes) {
                if (OPAL_LIKELY(req->contiguous)) {
                    mca_match_base_copy_small((unsigned char *) (line + 1), req->cptr,
                                              req->bytes);
                } else {
                    match_sm_pack(req, (unsigned char *) (line + 1), req->bytes);
                }
            }
            req->done = 1;
            __atomic_store_n(line, ++req->count, __ATOMIC_RELEASE);
        }
        if (req->sync && req->peer_count < req->count) {
            req->peer_count = __atomic_load_n(&slot->ack, __ATOMIC_ACQUIRE);
            return req->peer_count >= req->count;
        }
        return true;
    }
    if (__atomic_load_n(line, __ATOMIC_ACQUIRE) != req->count + 1) {
        return false;
    }
    if (0 < req->bytes) {
        if (OPAL_LIKELY(req->contiguous)) {
            mca_match_base_copy_small(req->cptr, (unsigned char *) (line + 1), req->bytes);
        } else {
            (void) match_sm_unpack(req, (unsigned char *) (line + 1), req->bytes);
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

    if (req->is_send) {
        while (req->done < req->nchunks) {
            size_t len = req->bytes - req->offset < req->chunk ? req->bytes - req->offset
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
        if (req->sync || req->cma) {
            if (req->peer_count < req->count) {
                req->peer_count = __atomic_load_n(&slot->ack, __ATOMIC_ACQUIRE);
            }
            return req->peer_count >= req->count;
        }
        return true;
    }

    while (req->done < req->nchunks) {
        size_t len = req->bytes - req->offset < req->chunk ? req->bytes - req->offset
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
            req->owner->super.req_status.MPI_ERROR = err;
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

static inline void match_sm_complete(mca_match_sm_half_t *req)
{
    mca_match_request_channel_finish(req->owner, req->owner->super.req_status.MPI_ERROR,
                                     req->truncated, req->bytes);
}

/* lock held */
static void match_sm_list_remove(mca_match_sm_half_t *req)
{
    if (NULL != req->prev) {
        req->prev->next = req->next;
    } else {
        match_sm_active = req->next;
    }
    if (NULL != req->next) {
        req->next->prev = req->prev;
    }
    req->next = req->prev = NULL;
    match_sm_nactive--;
}

static inline void match_sm_start_one(mca_match_request_t *owner)
{
    mca_match_sm_half_t *req = (mca_match_sm_half_t *) owner->mr_chan;

    mca_match_request_activate(owner);
    req->done = 0;
    req->offset = 0;
    if (!req->contiguous) {
        size_t zero = 0;
        (void) opal_convertor_set_position(&req->convertor, &zero);
    }
    if (match_sm_advance(req)) {
        match_sm_complete(req);
        return;
    }
    OPAL_THREAD_LOCK(&mca_match_sm_lock);
    req->prev = NULL;
    req->next = match_sm_active;
    if (NULL != match_sm_active) {
        match_sm_active->prev = req;
    }
    match_sm_active = req;
    match_sm_nactive++;
    OPAL_THREAD_UNLOCK(&mca_match_sm_lock);
}

/* the matched request's req_start */
static int match_sm_start(size_t count, ompi_request_t **requests)
{
    if (OPAL_UNLIKELY(mca_match_request_start_refused(count, requests))) {
        return OMPI_ERR_REQUEST;
    }
    for (size_t i = 0; i < count; ++i) {
        match_sm_start_one((mca_match_request_t *) requests[i]);
    }
    return OMPI_SUCCESS;
}

static int match_sm_start_owned(mca_match_request_t *owner)
{
    match_sm_start_one(owner);
    return OMPI_SUCCESS;
}

int mca_match_sm_progress(void)
{
    mca_match_sm_half_t *done[MATCH_SM_DONE_BATCH];
    mca_match_sm_half_t *req, *next;
    int ndone = 0;

    if (0 == match_sm_nactive) {
        return 0;
    }
    if (OPAL_THREAD_TRYLOCK(&mca_match_sm_lock)) {
        return 0;
    }
    for (req = match_sm_active; NULL != req && ndone < MATCH_SM_DONE_BATCH; req = next) {
        next = req->next;
        if (match_sm_advance(req)) {
            match_sm_list_remove(req);
            done[ndone++] = req;
        }
    }
    OPAL_THREAD_UNLOCK(&mca_match_sm_lock);
    for (int i = 0; i < ndone; ++i) {
        match_sm_complete(done[i]);
    }
    return ndone;
}

/* A receive that has moved nothing of its message can be cancelled; a
 * send cannot (its message may already be in the ring). */
static void match_sm_cancel(mca_match_request_t *owner)
{
    mca_match_sm_half_t *req = (mca_match_sm_half_t *) owner->mr_chan;
    bool cancelled = false;

    OPAL_THREAD_LOCK(&mca_match_sm_lock);
    if (!req->is_send && 0 == req->done
        && (NULL != req->prev || match_sm_active == req)) {
        match_sm_list_remove(req);
        cancelled = true;
    }
    OPAL_THREAD_UNLOCK(&mca_match_sm_lock);
    if (cancelled) {
        mca_match_request_channel_cancelled(owner);
    }
}

/* The peer is gone: whatever the request waits for (a line, credit, the
 * receiver's acknowledgement) will never come. */
static bool match_sm_abort(mca_match_request_t *owner)
{
    mca_match_sm_half_t *req = (mca_match_sm_half_t *) owner->mr_chan;
    bool aborted = false;

    OPAL_THREAD_LOCK(&mca_match_sm_lock);
    if (NULL != req->prev || match_sm_active == req) {
        match_sm_list_remove(req);
        aborted = true;
    }
    OPAL_THREAD_UNLOCK(&mca_match_sm_lock);
    return aborted;
}

static void match_sm_release(mca_match_request_t *owner)
{
    mca_match_sm_half_t *req = (mca_match_sm_half_t *) owner->mr_chan;

    owner->mr_chan = NULL;

    if (NULL != req->slot) {
        if (req->is_send) {
            mca_match_sm_segment_slot_closed(req->slot_index);
        } else {
            __atomic_store_n(&req->slot->receiver_closed, 1, __ATOMIC_RELEASE);
        }
    }
    OBJ_RELEASE(req);
}

const mca_match_channel_ops_t mca_match_sm_channel_ops = {
    .start = match_sm_start,
    .start_owned = match_sm_start_owned,
    .cancel = match_sm_cancel,
    .abort = match_sm_abort,
    .release = match_sm_release,
};

void mca_match_sm_request_fini(void)
{
    match_sm_active = NULL;
    match_sm_nactive = 0;
}
