/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Owners of requests.  A framework may hold a request between two of its
 * own calls, and then the program's completion calls on it must ask that
 * framework first:
 *  - a queue holds a matched request from MPI_Enqueue_start until the
 *    enqueued wait completes; MPI_Wait, MPI_Test and their array forms are
 *    refused meanwhile (the chapter makes them erroneous), and so are
 *    MPI_Start, MPI_Request_free and MPI_Cancel (ompi_request_owner_holds);
 *  - an MPIX execution in a library that is not thread safe holds its
 *    blocking-only operations for the calls that wait for its request: the
 *    wait and test calls drive it in the program's thread (graphs spec 4.2).
 *
 * An owner registers a description of itself once (ompi_request_owner_t)
 * and counts what it holds in ompi_request_owned.  A request held through
 * its completion callback carries the owner's callback in req_complete_cb
 * (upstream's completion hook) and the owner's record in
 * req_complete_cb_data, from the moment it is held until it is given back,
 * through every completion: the code that completes such a request calls
 * ompi_request_owner_complete, which leaves the callback in place (the
 * owning thread reads the record while completions run in other threads;
 * upstream's ompi_request_complete clears the callback for the time of the
 * call, which would make the request look unowned).  The completion calls
 * test one counter when nothing is held (ompi_request_owner_check); they are
 * called from a single hunk per binding (ompi/mpi/c/wait*.c, test*.c).
 */

#ifndef OMPI_REQUEST_REQUEST_OWNER_H
#define OMPI_REQUEST_REQUEST_OWNER_H

#include "ompi_config.h"

#include "opal/sys/atomic.h"
#include "ompi/request/request.h"

BEGIN_C_DECLS

/**
 * REQUEST_COMPLETE with acquire order, for code that reads a request's
 * status, or frees or reuses it, once it is complete, while another thread
 * may complete it: the completing thread writes the status, then publishes
 * the completion by ompi_request_complete's atomic swap of req_complete
 * (or a store), and this load pairs with it.  (REQUEST_COMPLETE is a plain
 * load: ThreadSanitizer reports it racing with the swap, and the reads
 * after it with the writes before.)
 *
 * @param[in] req  the request
 * @return true when the request is complete
 *
 * Any thread.
 */
static inline bool ompi_request_seen_complete(ompi_request_t *req)
{
    return REQUEST_COMPLETED == (void *) __atomic_load_n(&req->req_complete, __ATOMIC_ACQUIRE);
}

/** How long a completion call waits: the rule an owner that drives follows. */
typedef enum {
    OMPI_REQUEST_OWNER_TEST = 0,  /**< MPI_Test and its array forms: one pass */
    OMPI_REQUEST_OWNER_ANY = 1,   /**< MPI_Waitany, MPI_Waitsome: until one request completes */
    OMPI_REQUEST_OWNER_ALL = 2,   /**< MPI_Wait, MPI_Waitall: until every one completes */
} ompi_request_owner_mode_t;

typedef struct ompi_request_owner_t {
    /**
     * The completion callback set on the requests the owner holds
     * (req_complete_cb), or NULL for an owner that holds none that way.
     * Called by ompi_request_owner_complete, in the thread that completes
     * the request, with the callback still set; it completes the request
     * with ompi_request_owner_mark_complete() and returns 1.
     */
    ompi_request_complete_fn_t completed;
    /**
     * What a completion call says when it refuses a request the owner
     * holds (after the function's name), or NULL for an owner that never
     * refuses.
     */
    const char *refusal;
    /**
     * A completion call on count requests (MPI_REQUEST_NULL and others
     * among them), in the program's thread, no lock held, while something
     * is held in the process.  An owner that refuses returns the index of
     * the first request it holds; one that drives runs the work it holds
     * for these requests, as mode says, and returns -1.
     *
     * @return the index of a request the call must refuse, or -1
     */
    int (*check)(int count, ompi_request_t **requests, ompi_request_owner_mode_t mode);
} ompi_request_owner_t;

/** What owners hold in the whole process (each adds and subtracts its own):
 * the completion calls ask the owners only when it is not zero. */
OMPI_DECLSPEC extern opal_atomic_int32_t ompi_request_owned;

#define OMPI_REQUEST_OWNERS_MAX 4

/** The completion callbacks of the registered owners that have one (kept by
 * ompi_request_owner_register and _unregister): read inline by
 * ompi_request_owner_holds and ompi_request_owner_complete, on the path of
 * every matched start and completion. */
OMPI_DECLSPEC extern ompi_request_complete_fn_t volatile
    ompi_request_owner_callbacks[OMPI_REQUEST_OWNERS_MAX];
OMPI_DECLSPEC extern volatile int ompi_request_owner_ncallbacks;

/**
 * Make an owner known (once; the description stays valid until
 * ompi_request_owner_unregister).  Owners that refuse are asked before
 * owners that drive.  Not from a progress callback.
 *
 * @return OMPI_SUCCESS, or OMPI_ERR_OUT_OF_RESOURCE (too many owners)
 */
OMPI_DECLSPEC int ompi_request_owner_register(const ompi_request_owner_t *owner);
OMPI_DECLSPEC void ompi_request_owner_unregister(const ompi_request_owner_t *owner);

OMPI_DECLSPEC int ompi_request_owner_check_slow(int count, ompi_request_t **requests,
                                                ompi_request_owner_mode_t mode,
                                                const char *func);

/** cb is an owner's completion callback (a request that carries it is held). */
static inline bool ompi_request_owner_is_callback(ompi_request_complete_fn_t cb)
{
    int n = ompi_request_owner_ncallbacks;

    opal_atomic_rmb();
    for (int i = 0; i < n; ++i) {
        if (cb == ompi_request_owner_callbacks[i]) {
            return true;
        }
    }
    return false;
}

/**
 * Ask the owners before a completion call on count requests (the program's
 * thread, no lock).
 *
 * @param func  the MPI function's name, for the refusal's message
 * @return MPI_SUCCESS, or the error the call returns: MPI_ERR_REQUEST,
 *         raised on the refused request's communicator
 */
static inline int ompi_request_owner_check(int count, ompi_request_t **requests,
                                           ompi_request_owner_mode_t mode, const char *func)
{
    /* a hint: the requests this thread passes were taken by its own
     * earlier calls, which it sees; other threads' holds change the count
     * only by holds of other requests */
    if (OPAL_LIKELY(0 == __atomic_load_n(&ompi_request_owned, __ATOMIC_RELAXED))
        || NULL == requests) {
        return MPI_SUCCESS;
    }
    return ompi_request_owner_check_slow(count, requests, mode, func);
}

/** An owner holds the request through its completion callback: starting,
 * freeing or cancelling it is refused (one load for a request nobody
 * watches). */
static inline bool ompi_request_owner_holds(const ompi_request_t *request)
{
    /* atomic, as the owner's store of its callback is (queue_own); relaxed:
     * nothing is read through it */
    ompi_request_complete_fn_t cb = __atomic_load_n(&request->req_complete_cb, __ATOMIC_RELAXED);

    return NULL != cb && ompi_request_owner_is_callback(cb);
}

/** In an owner's completion callback: complete the request as
 * ompi_request_complete does after a callback that returned 0. */
static inline void ompi_request_owner_mark_complete(ompi_request_t *request)
{
    ompi_wait_sync_t *sync = (ompi_wait_sync_t *) OPAL_ATOMIC_SWAP_PTR(&request->req_complete,
                                                                       REQUEST_COMPLETED);
    if (REQUEST_PENDING != sync) {
        wait_sync_update(sync, 1, request->req_status.MPI_ERROR);
    }
}

/**
 * Complete a request that an owner may hold, as ompi_request_complete(request,
 * true) does, except that an owner's callback is called without being cleared
 * first, so that the owner's record stays readable by the owning thread while
 * the completion runs in another.  A callback of anyone else's is treated as
 * upstream treats it.  Any thread.
 */
static inline void ompi_request_owner_complete(ompi_request_t *request)
{
    /* pairs with the owner's release store of the callback: its record
     * (req_complete_cb_data) is read next */
    ompi_request_complete_fn_t cb = __atomic_load_n(&request->req_complete_cb, __ATOMIC_ACQUIRE);

    if (NULL == cb) {
        /* what ompi_request_complete does without a callback, with the
         * callback already loaded */
        ompi_request_owner_mark_complete(request);
        return;
    }
    if (ompi_request_owner_is_callback(cb)) {
        (void) cb(request);
        return;
    }
    ompi_request_complete(request, true);
}

END_C_DECLS

#endif /* OMPI_REQUEST_REQUEST_OWNER_H */
