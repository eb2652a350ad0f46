/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "opal/class/opal_list.h"
#include "opal/mca/threads/mutex.h"
#include "opal/runtime/opal_progress.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/errhandler/errcode-internal.h"
#include "ompi/errhandler/errhandler.h"
#include "opal/util/printf.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_request.h"

/*
 * Matched requests
 */

static int match_request_start(size_t count, ompi_request_t **requests);
static int match_request_free(ompi_request_t **request);
static int match_request_cancel(ompi_request_t *request, int complete);

static void match_request_construct(mca_match_request_t *req)
{
    req->mr_kind = MCA_MATCH_KIND_NULL;
    req->mr_state = MCA_MATCH_STATE_PENDING;
    req->mr_original = NULL;
    req->mr_inner = NULL;
    req->mr_chan_ops = NULL;
    req->mr_chan = NULL;
    req->mr_peer = MPI_PROC_NULL;
    req->mr_tag = MPI_ANY_TAG;
    req->mr_op = NULL;
    req->mr_handoff = MCA_MATCH_HANDOFF_RUNNING;
    req->super.req_start = match_request_start;
    req->super.req_free = match_request_free;
    req->super.req_cancel = match_request_cancel;
}

OBJ_CLASS_INSTANCE(mca_match_request_t, ompi_request_t, match_request_construct, NULL);

const ompi_request_free_fn_t mca_match_request_free_fn = match_request_free;

static void match_request_release(mca_match_request_t *req)
{
    if (NULL != req->mr_chan_ops) {
        req->mr_chan_ops->release(req);
        req->mr_chan_ops = NULL;
    }
    if (NULL != req->mr_inner) {
        if (MCA_MATCH_KIND_COLL != req->mr_kind) {
            req->mr_inner->req_state = OMPI_REQUEST_INACTIVE;
        }
        (void) ompi_request_free(&req->mr_inner);
    }
    if (NULL != req->mr_original) {
        (void) ompi_request_free(&req->mr_original);
    }
    OMPI_REQUEST_FINI(&req->super);
    OBJ_RELEASE(req);
}

/* Completion of the pml channel's operation: report it on the matched
 * request, with the program's view of source and tag.  The channel
 * operation is marked complete first, before the matched request lets its
 * next start run: a PML may complete a request twice and tell the second
 * time by that mark (ob1 completes an eager send for MPI when its data is
 * copied, and again, unless it is marked complete, when the transport is
 * done with it), and a mark set after the next start would hide that
 * start's own completion.  Nobody waits on the channel operation, so the
 * mark needs no signal, and the callback returns 1. */
static int match_inner_complete(ompi_request_t *inner)
{
    mca_match_request_t *req = (mca_match_request_t *) inner->req_complete_cb_data;
    ompi_status_public_t *status = &req->super.req_status;

    status->MPI_SOURCE = (MCA_MATCH_KIND_SEND == req->mr_kind) ? req->mr_desc.comm->c_my_rank
                                                               : req->mr_peer;
    status->MPI_TAG = req->mr_tag;
    status->MPI_ERROR = inner->req_status.MPI_ERROR;
    status->_cancelled = inner->req_status._cancelled;
    status->_ucount = inner->req_status._ucount;
    inner->req_state = OMPI_REQUEST_INACTIVE;
    inner->req_complete = REQUEST_COMPLETED;
    opal_atomic_wmb();
    /* the same completion as a channel's that runs on the matched request */
    mca_match_request_channel_done(req);
    return 1;
}

static int match_request_start_all(size_t count, ompi_request_t **requests)
{
    for (size_t i = 0; i < count; ++i) {
        mca_match_request_t *req = (mca_match_request_t *) requests[i];
        int ret;

        if (MCA_MATCH_STATE_MATCHED != req->mr_state) {
            /* an MPI_Imatch not completed yet, or a failed match */
            return OMPI_ERR_REQUEST;
        }
        if (NULL != req->mr_chan_ops) {
            ret = req->mr_chan_ops->start_owned(req);
            if (OPAL_UNLIKELY(OMPI_SUCCESS != ret)) {
                return ret;
            }
            continue;
        }
        req->super.req_status.MPI_ERROR = MPI_SUCCESS;
        req->super.req_status._cancelled = 0;
        req->super.req_state = OMPI_REQUEST_ACTIVE;
        if (NULL == req->mr_inner) {
            /* complete already: a free needs no completion to release it */
            req->mr_handoff = MCA_MATCH_HANDOFF_COMPLETING;
            /* MPI_PROC_NULL: complete at once with the empty status */
            req->super.req_status.MPI_SOURCE = MPI_PROC_NULL;
            req->super.req_status.MPI_TAG = MPI_ANY_TAG;
            req->super.req_status._ucount = 0;
            req->super.req_complete = REQUEST_COMPLETED;
            continue;
        }
        req->super.req_complete = REQUEST_PENDING;
        req->mr_handoff = MCA_MATCH_HANDOFF_RUNNING;
        req->mr_inner->req_complete_cb_data = req;
        /* the inner request may complete in another thread (the progress
         * thread, another program thread), which reads the callback and
         * then this request's fields: the release store publishes what
         * this start wrote above to that thread, whatever synchronization
         * the PML's completion path has (across processes, none that this
         * process sees); ompi_request_complete's load of the callback
         * pairs with it */
        __atomic_store_n(&req->mr_inner->req_complete_cb, match_inner_complete,
                         __ATOMIC_RELEASE);
        ret = req->mr_inner->req_start(1, &req->mr_inner);
        if (OPAL_UNLIKELY(OMPI_SUCCESS != ret)) {
            req->mr_inner->req_complete_cb = NULL;
            req->super.req_state = OMPI_REQUEST_INACTIVE;
            req->super.req_complete = REQUEST_COMPLETED;
            return ret;
        }
    }
    return OMPI_SUCCESS;
}

static int match_request_start(size_t count, ompi_request_t **requests)
{
    if (mca_match_request_start_refused(count, requests)) {
        return OMPI_ERR_REQUEST;
    }
    return match_request_start_all(count, requests);
}

int mca_match_request_start_owned(size_t count, ompi_request_t **requests)
{
    return match_request_start_all(count, requests);
}

static int match_request_free(ompi_request_t **request)
{
    mca_match_request_t *req = (mca_match_request_t *) *request;

    if (MCA_MATCH_STATE_PENDING == req->mr_state || ompi_request_owner_holds(&req->super)) {
        /* its match is under way, or an owner holds it */
        return OMPI_ERR_REQUEST;
    }
    if (OMPI_REQUEST_ACTIVE == req->super.req_state) {
        int32_t running = MCA_MATCH_HANDOFF_RUNNING;
        if (OPAL_THREAD_COMPARE_EXCHANGE_STRONG_32(&req->mr_handoff, &running,
                                                   MCA_MATCH_HANDOFF_FREED)) {
            /* MPI_Request_free of an active request: its completion
             * releases it */
            *request = MPI_REQUEST_NULL;
            return OMPI_SUCCESS;
        }
        /* the completion claimed it first: it is finishing in another
         * thread, and touches the request until it is complete */
        while (!ompi_request_seen_complete(&req->super)) {
            opal_atomic_rmb();
        }
    }
    match_request_release(req);
    *request = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

static int match_request_cancel(ompi_request_t *request, int complete)
{
    mca_match_request_t *req = (mca_match_request_t *) request;
    (void) complete;

    if (ompi_request_owner_holds(request)) {
        return OMPI_ERR_REQUEST;
    }
    if (OMPI_REQUEST_ACTIVE != request->req_state) {
        return OMPI_SUCCESS;
    }
    if (NULL != req->mr_chan_ops) {
        req->mr_chan_ops->cancel(req);
        return OMPI_SUCCESS;
    }
    if (NULL == req->mr_inner) {
        return OMPI_SUCCESS;
    }
    return ompi_request_cancel(req->mr_inner);
}

/*
 * Match operations (MPI_Imatch, MPI_Imatchall)
 */

static int match_op_free(ompi_request_t **request)
{
    mca_match_op_t *op = (mca_match_op_t *) *request;

    if (!ompi_request_seen_complete(&op->super)) {
        /* its requests still point at it */
        return OMPI_ERR_REQUEST;
    }
    OMPI_REQUEST_FINI(&op->super);
    OBJ_RELEASE(op);
    *request = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

static int match_op_cancel(ompi_request_t *request, int complete)
{
    (void) request;
    (void) complete;
    /* the chapter: a match request cannot be cancelled */
    return OMPI_ERR_REQUEST;
}

static void match_op_construct(mca_match_op_t *op)
{
    op->mo_pending = 0;
    op->mo_error = MPI_SUCCESS;
    op->super.req_free = match_op_free;
    op->super.req_cancel = match_op_cancel;
}

OBJ_CLASS_INSTANCE(mca_match_op_t, ompi_request_t, match_op_construct, NULL);

static void match_op_done(mca_match_op_t *op)
{
    op->super.req_status.MPI_SOURCE = MPI_ANY_SOURCE;
    op->super.req_status.MPI_TAG = MPI_ANY_TAG;
    op->super.req_status._ucount = 0;
    op->super.req_status._cancelled = 0;
    op->super.req_status.MPI_ERROR = op->mo_error;
    ompi_request_complete(&op->super, true);
}

void mca_match_request_matched(mca_match_request_t *req, int status)
{
    mca_match_op_t *op = req->mr_op;

    if (OMPI_SUCCESS == status) {
        /* the program's original request is replaced by the channel */
        if (NULL != req->mr_original && MCA_MATCH_KIND_COLL != req->mr_kind) {
            (void) ompi_request_free(&req->mr_original);
        }
        req->mr_original = NULL;
        if (NULL != req->mr_chan_ops) {
            /* every completion's source and tag: its channel writes only
             * the error and the count */
            req->super.req_status.MPI_SOURCE = (MCA_MATCH_KIND_SEND == req->mr_kind)
                                                   ? req->mr_desc.comm->c_my_rank
                                                   : req->mr_peer;
            req->super.req_status.MPI_TAG = req->mr_tag;
            /* the channel starts it: one request, one completion */
            req->super.req_start = req->mr_chan_ops->start;
        }
        opal_atomic_wmb();
        req->mr_state = MCA_MATCH_STATE_MATCHED;
    } else {
        req->mr_state = MCA_MATCH_STATE_FAILED;
    }
    req->mr_op = NULL;
    opal_output_verbose(MCA_BASE_VERBOSE_TRACE, OMPI_MATCH_BASE_OUTPUT,
                        "match:base: request %p %s (peer %d, tag %d)", (void *) req,
                        OMPI_SUCCESS == status ? "matched" : "failed", req->mr_peer, req->mr_tag);
    if (NULL != op) {
        if (OMPI_SUCCESS != status && MPI_SUCCESS == op->mo_error) {
            op->mo_error = ompi_errcode_get_mpi_code(status);
        }
        if (1 == opal_atomic_fetch_add_32(&op->mo_pending, -1)) {
            match_op_done(op);
        }
    }
}

int mca_match_request_check(ompi_request_t *request, const char **reason)
{
    mca_match_p2p_desc_t desc;

    if (NULL == request || MPI_REQUEST_NULL == request) {
        *reason = "the request is MPI_REQUEST_NULL";
        return OMPI_ERR_REQUEST;
    }
    if (mca_match_request_is(request)) {
        *reason = "the request is already matched";
        return OMPI_ERR_REQUEST;
    }
    if (OMPI_REQUEST_PART == request->req_type) {
        *reason = "a partitioned request is matched when it is created";
        return OMPI_ERR_REQUEST;
    }
    if (OMPI_REQUEST_GEN == request->req_type) {
        *reason = "a generalized request cannot be matched";
        return OMPI_ERR_REQUEST;
    }
    if (!request->req_persistent) {
        *reason = "only persistent requests can be matched";
        return OMPI_ERR_REQUEST;
    }
    if (OMPI_REQUEST_INVALID == request->req_state) {
        *reason = "the request was freed";
        return OMPI_ERR_REQUEST;
    }
    if (OMPI_REQUEST_INACTIVE != request->req_state) {
        *reason = "the request is active";
        return OMPI_ERR_REQUEST;
    }
    switch (request->req_type) {
    case OMPI_REQUEST_NOOP:
    case OMPI_REQUEST_COLL:
        return OMPI_SUCCESS;
    case OMPI_REQUEST_PML:
        if (NULL != (*reason = mca_match_base_describe_refusal())) {
            return OMPI_ERR_NOT_SUPPORTED;
        }
        if (!mca_match_base_describe(request, &desc)) {
            *reason = "not a persistent point-to-point request of MPI_Send_init, MPI_Bsend_init, "
                      "MPI_Ssend_init, MPI_Rsend_init or MPI_Recv_init";
            return OMPI_ERR_REQUEST;
        }
        return OMPI_SUCCESS;
    default:
        *reason = "this kind of persistent request cannot be matched";
        return OMPI_ERR_REQUEST;
    }
}

/* Persistent collectives: match when every rank has initialized its
 * request, that is after a barrier on the request's communicator. */
static int match_coll_barrier_done(ompi_request_t *barrier)
{
    mca_match_request_t *req = (mca_match_request_t *) barrier->req_complete_cb_data;
    int status = barrier->req_status.MPI_ERROR;

    mca_match_base_release_later(barrier);
    mca_match_request_matched(req, MPI_SUCCESS == status ? OMPI_SUCCESS : OMPI_ERROR);
    return 0;
}

static int match_begin_coll(mca_match_request_t *req)
{
    ompi_communicator_t *comm = req->super.req_mpi_object.comm;
    ompi_request_t *barrier = NULL;
    int ret;

    ret = comm->c_coll->coll_ibarrier(comm, &barrier, comm->c_coll->coll_ibarrier_module);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    return ompi_request_set_callback(barrier, match_coll_barrier_done, req);
}

static mca_match_request_t *match_wrap(ompi_request_t *original, mca_match_op_t *op)
{
    mca_match_request_t *req = OBJ_NEW(mca_match_request_t);

    if (NULL == req) {
        return NULL;
    }
    OMPI_REQUEST_INIT(&req->super, true);
    req->super.req_type = (OMPI_REQUEST_COLL == original->req_type) ? OMPI_REQUEST_COLL
                                                                    : OMPI_REQUEST_PML;
    req->super.req_mpi_object = original->req_mpi_object;
    req->super.req_status = ompi_status_empty;
    req->mr_original = original;
    req->mr_op = op;
    switch (original->req_type) {
    case OMPI_REQUEST_COLL:
        req->mr_kind = MCA_MATCH_KIND_COLL;
        req->mr_inner = original;
        req->mr_original = NULL;
        break;
    case OMPI_REQUEST_NOOP:
        req->mr_kind = MCA_MATCH_KIND_NULL;
        req->super.req_mpi_object.comm = &ompi_mpi_comm_self.comm;
        break;
    default:
        (void) mca_match_base_describe(original, &req->mr_desc);
        req->mr_kind = req->mr_desc.is_send ? MCA_MATCH_KIND_SEND : MCA_MATCH_KIND_RECV;
        req->super.req_mpi_object.comm = req->mr_desc.comm;
        req->mr_peer = req->mr_desc.peer;
        req->mr_tag = req->mr_desc.tag;
        break;
    }
    return req;
}

int mca_match_begin(size_t count, ompi_request_t **requests, mca_match_op_t **op_out)
{
    mca_match_request_t **wrapped;
    mca_match_op_t *op;
    int ret = OMPI_SUCCESS;

    op = OBJ_NEW(mca_match_op_t);
    wrapped = calloc(count > 0 ? count : 1, sizeof(*wrapped));
    if (NULL == op || NULL == wrapped) {
        ret = OMPI_ERR_OUT_OF_RESOURCE;
        goto err_free;
    }
    OMPI_REQUEST_INIT(&op->super, false);
    op->super.req_type = OMPI_REQUEST_PML;
    op->super.req_state = OMPI_REQUEST_ACTIVE;
    op->super.req_mpi_object.comm = (count > 0 && OMPI_REQUEST_NOOP != requests[0]->req_type)
                                        ? requests[0]->req_mpi_object.comm
                                        : &ompi_mpi_comm_self.comm;

    /* every wrapper first, so that no handle changes if one fails */
    for (size_t i = 0; i < count; ++i) {
        wrapped[i] = match_wrap(requests[i], op);
        if (NULL == wrapped[i]) {
            ret = OMPI_ERR_OUT_OF_RESOURCE;
            goto err_unwrap;
        }
    }
    op->mo_pending = (int32_t) count + 1;   /* +1: held until every match is begun */
    for (size_t i = 0; i < count; ++i) {
        requests[i] = &wrapped[i]->super;
    }
    for (size_t i = 0; i < count; ++i) {
        mca_match_request_t *req = wrapped[i];
        int rc;

        switch (req->mr_kind) {
        case MCA_MATCH_KIND_NULL:
            mca_match_request_matched(req, OMPI_SUCCESS);
            continue;
        case MCA_MATCH_KIND_COLL:
            rc = match_begin_coll(req);
            break;
        default:
            rc = mca_match_base_selected_module->match_p2p(req);
            break;
        }
        if (OMPI_SUCCESS != rc) {
            /* this one never started: the program gets its request back */
            if (MCA_MATCH_KIND_COLL == req->mr_kind) {
                requests[i] = req->mr_inner;
                req->mr_inner = NULL;
            } else {
                requests[i] = req->mr_original;
                req->mr_original = NULL;
            }
            mca_match_request_matched(req, rc);
            mca_match_base_release_later(&req->super);
            if (OMPI_SUCCESS == ret) {
                ret = rc;
            }
        }
    }
    if (1 == opal_atomic_fetch_add_32(&op->mo_pending, -1)) {
        match_op_done(op);
    }
    free(wrapped);
    *op_out = op;
    return ret;

err_unwrap:
    for (size_t i = 0; i < count && NULL != wrapped[i]; ++i) {
        wrapped[i]->mr_original = NULL;
        wrapped[i]->mr_inner = NULL;
        OMPI_REQUEST_FINI(&wrapped[i]->super);
        OBJ_RELEASE(wrapped[i]);
    }
err_free:
    free(wrapped);
    if (NULL != op) {
        OBJ_RELEASE(op);
    }
    return ret;
}

/*
 * Internal requests released from progress, never inside a completion
 * callback (the PML may still use them there).
 */

static opal_mutex_t match_release_lock = OPAL_MUTEX_STATIC_INIT;
static ompi_request_t **match_release_list = NULL;
static size_t match_release_count = 0, match_release_size = 0;

void mca_match_base_release_later(ompi_request_t *request)
{
    OPAL_THREAD_LOCK(&match_release_lock);
    if (match_release_count == match_release_size) {
        size_t size = match_release_size ? 2 * match_release_size : 16;
        ompi_request_t **list = realloc(match_release_list, size * sizeof(*list));
        if (NULL == list) {
            OPAL_THREAD_UNLOCK(&match_release_lock);
            return; /* leaked, never reused: harmless */
        }
        match_release_list = list;
        match_release_size = size;
    }
    match_release_list[match_release_count] = request;
    /* stored atomically under the lock: mca_match_base_progress peeks */
    __atomic_store_n(&match_release_count, match_release_count + 1, __ATOMIC_RELAXED);
    OPAL_THREAD_UNLOCK(&match_release_lock);
}

int mca_match_base_progress(void)
{
    ompi_request_t *request;
    int done = 0;

    /* a peek without the lock, on every progress call: a request queued
     * meanwhile is released at the next call */
    if (0 == __atomic_load_n(&match_release_count, __ATOMIC_RELAXED)) {
        return 0;
    }
    OPAL_THREAD_LOCK(&match_release_lock);
    while (match_release_count > 0) {
        __atomic_store_n(&match_release_count, match_release_count - 1, __ATOMIC_RELAXED);
        request = match_release_list[match_release_count];
        OPAL_THREAD_UNLOCK(&match_release_lock);
        if (mca_match_request_is(request)) {
            match_request_release((mca_match_request_t *) request);
        } else {
            (void) ompi_request_free(&request);
        }
        done++;
        OPAL_THREAD_LOCK(&match_release_lock);
    }
    OPAL_THREAD_UNLOCK(&match_release_lock);
    return done;
}

static int match_ptr_cmp(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) *(ompi_request_t *const *) a;
    uintptr_t y = (uintptr_t) *(ompi_request_t *const *) b;
    return (x > y) - (x < y);
}

/* Short arrays are compared pairwise; longer ones are sorted (a copy), so
 * that a large array of requests (MPI_Matchall, or any caller's) stays
 * O(n log n). */
int mca_match_base_find_duplicate(int count, ompi_request_t *const *requests)
{
    ompi_request_t **sorted;
    ompi_request_t *dup = NULL;

    if (count <= 16) {
        for (int i = 1; i < count; ++i) {
            for (int j = 0; j < i; ++j) {
                if (requests[j] == requests[i]) {
                    return i;
                }
            }
        }
        return -1;
    }
    sorted = malloc(count * sizeof(*sorted));
    if (NULL == sorted) {
        return -1;  /* cannot tell: the per-request state checks still apply */
    }
    memcpy(sorted, requests, count * sizeof(*sorted));
    qsort(sorted, count, sizeof(*sorted), match_ptr_cmp);
    for (int i = 1; i < count && NULL == dup; ++i) {
        if (sorted[i] == sorted[i - 1]) {
            dup = sorted[i];
        }
    }
    free(sorted);
    if (NULL != dup) {
        /* the second occurrence, as the pairwise check reports it */
        for (int i = 0, seen = 0; i < count; ++i) {
            if (requests[i] == dup && seen++) {
                return i;
            }
        }
    }
    return -1;
}

int mca_match_check_all(int count, ompi_request_t **requests, int *bad, const char **reason)
{
    for (int i = 0; i < count; ++i) {
        int ret = mca_match_request_check(requests[i], reason);
        if (OMPI_SUCCESS != ret) {
            *bad = i;
            return (OMPI_ERR_NOT_SUPPORTED == ret) ? MPI_ERR_UNSUPPORTED_OPERATION
                                                   : MPI_ERR_REQUEST;
        }
    }
    if (0 <= (*bad = mca_match_base_find_duplicate(count, requests))) {
        *reason = "the same request appears twice";
        return MPI_ERR_REQUEST;
    }
    return MPI_SUCCESS;
}

int mca_match_base_error(ompi_request_t *request, int err, const char *func, const char *reason)
{
    ompi_communicator_t *comm = NULL;
    char *msg = NULL;
    int ret;

    if (NULL != request && MPI_REQUEST_NULL != request
        && (OMPI_REQUEST_PML == request->req_type || OMPI_REQUEST_COLL == request->req_type)
        && OMPI_REQUEST_INVALID != request->req_state) {
        comm = request->req_mpi_object.comm;
    }
    if (NULL == reason || 0 > opal_asprintf(&msg, "%s: %s", func, reason)) {
        msg = NULL;
    }
    opal_output_verbose(MCA_BASE_VERBOSE_WARN, OMPI_MATCH_BASE_OUTPUT, "match: %s",
                        NULL != msg ? msg : func);
    if (NULL != comm) {
        ret = OMPI_ERRHANDLER_INVOKE(comm, err, NULL != msg ? msg : func);
    } else {
        ret = OMPI_ERRHANDLER_NOHANDLE_INVOKE(err, NULL != msg ? msg : func);
    }
    free(msg);
    return ret;
}
