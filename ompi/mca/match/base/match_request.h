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
 * Matched requests and match operations.
 *
 * MPI_Match replaces the program's persistent request with a matched
 * request (mca_match_request_t).  It keeps the original request's kind
 * (OMPI_REQUEST_PML or OMPI_REQUEST_COLL), is persistent and carries the
 * communicator, so MPI_Start, MPI_Startall, MPI_Wait*, MPI_Test*, the error
 * handlers and MPI_Request_free work on it unchanged.  On an sm, ucx or
 * ofi channel the request runs the channel itself: once matched, its req_start
 * is the channel's start, and the channel completes it (mr_chan,
 * mr_chan_ops).  On the pml channel each start runs a PML persistent
 * request (mr_inner) and completes the matched request when that request
 * completes.  Either way the status has the program's source and tag.
 *
 * MPI_Imatch / MPI_Imatchall return a match operation (mca_match_op_t): a
 * nonpersistent request completed when every request it covers is matched.
 */

#ifndef MCA_MATCH_BASE_MATCH_REQUEST_H
#define MCA_MATCH_BASE_MATCH_REQUEST_H

#include "ompi_config.h"

#include "opal/sys/atomic.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/match/match.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/request/request.h"
#include "ompi/request/request_owner.h"

BEGIN_C_DECLS

typedef enum {
    MCA_MATCH_KIND_SEND,  /**< persistent point-to-point send */
    MCA_MATCH_KIND_RECV,  /**< persistent receive */
    MCA_MATCH_KIND_COLL,  /**< persistent collective */
    MCA_MATCH_KIND_NULL,  /**< persistent operation with MPI_PROC_NULL */
} mca_match_kind_t;

/*
 * Completion and MPI_Request_free of an active request may run in two
 * threads (one may be the progress thread).  Whichever claims the request
 * first decides, before the request is completed: the completion then
 * completes it and never touches it again; a free claimed first makes the
 * completion release it, and a free claimed second waits for the
 * completion to finish before releasing it.
 */
typedef enum {
    MCA_MATCH_HANDOFF_RUNNING = 0,    /**< started, not claimed */
    MCA_MATCH_HANDOFF_COMPLETING = 1, /**< the completion claimed it */
    MCA_MATCH_HANDOFF_FREED = 2,      /**< the program freed it first */
} mca_match_handoff_t;

typedef enum {
    MCA_MATCH_STATE_PENDING = 0,
    MCA_MATCH_STATE_MATCHED = 1,
    MCA_MATCH_STATE_FAILED = 2,
} mca_match_state_t;

/** The arguments of a persistent point-to-point request's creation, as
 * the PML's pml_describe gives them (pml.h). */
typedef mca_pml_base_persistent_desc_t mca_match_p2p_desc_t;

struct mca_match_op_t;

typedef struct mca_match_request_t {
    ompi_request_t super;
    mca_match_kind_t mr_kind;
    volatile int32_t mr_state;         /**< mca_match_state_t */
    mca_match_p2p_desc_t mr_desc;      /**< point-to-point: the program's arguments */
    ompi_request_t *mr_original;       /**< the program's request until matched */
    ompi_request_t *mr_inner;          /**< pml channel, collective: what each start runs */
    /** sm, ucx, ofi: the channel running on this request, and its half of the
     * pair (neither they nor mr_inner: MPI_PROC_NULL) */
    const mca_match_channel_ops_t *mr_chan_ops;
    void *mr_chan;
    int mr_peer;                       /**< status source: the resolved peer */
    int mr_tag;                        /**< status tag: the sender's tag */
    struct mca_match_op_t *mr_op;      /**< the match operation, while pending */
    /** who lets go of an active request last: the completion, or a free of
     * the request while active (mca_match_handoff_t) */
    opal_atomic_int32_t mr_handoff;
} mca_match_request_t;

OMPI_DECLSPEC OBJ_CLASS_DECLARATION(mca_match_request_t);

typedef struct mca_match_op_t {
    ompi_request_t super;
    opal_atomic_int32_t mo_pending;    /**< requests not yet matched */
    int mo_error;                      /**< first error, MPI_SUCCESS if none */
} mca_match_op_t;

OMPI_DECLSPEC OBJ_CLASS_DECLARATION(mca_match_op_t);

/** The free function of matched requests: identifies them (their start
 * function is the channel's once they are matched). */
OMPI_DECLSPEC extern const ompi_request_free_fn_t mca_match_request_free_fn;

/** True when the request is a matched request (matched or being matched). */
static inline bool mca_match_request_is(const ompi_request_t *request)
{
    return NULL != request && mca_match_request_free_fn == request->req_free;
}

/** Start matched requests that an owner holds: the owner's own starts
 * (request_owner.h). */
OMPI_DECLSPEC int mca_match_request_start_owned(size_t count, ompi_request_t **requests);

/** The owner's next start of this matched request will come later (a
 * queue's start behind pending operations): let its channel arm it where
 * it can (mca_match_channel_ops_t's arm).  No effect on other requests. */
static inline void mca_match_request_arm(ompi_request_t *request)
{
    mca_match_request_t *req = (mca_match_request_t *) request;

    if (mca_match_request_is(request) && MCA_MATCH_STATE_MATCHED == req->mr_state
        && NULL != req->mr_chan_ops && NULL != req->mr_chan_ops->arm) {
        (void) req->mr_chan_ops->arm(req);
    }
}

/** A channel's MPI_Start: true when an owner holds one of the requests,
 * which MPI_Start must not start behind it (then none is started). */
static inline bool mca_match_request_start_refused(size_t count, ompi_request_t **requests)
{
    for (size_t i = 0; i < count; ++i) {
        if (OPAL_UNLIKELY(ompi_request_owner_holds(requests[i]))) {
            return true;
        }
    }
    return false;
}

/** A channel's start of one request, before its transfer: active, not
 * complete, no error yet (source and tag are set once, at match time). */
static inline void mca_match_request_activate(mca_match_request_t *req)
{
    req->super.req_status.MPI_ERROR = MPI_SUCCESS;
    req->super.req_status._cancelled = 0;
    req->mr_handoff = MCA_MATCH_HANDOFF_RUNNING;
    req->super.req_complete = REQUEST_PENDING;
    req->super.req_state = OMPI_REQUEST_ACTIVE;
}

OMPI_DECLSPEC void mca_match_base_release_later(ompi_request_t *request);

/**
 * A channel's completion of the transfer a start began (any thread, once
 * per start), with MPI_ERROR and _ucount of req_status filled: completes
 * the request (an owner's completion callback runs then), or releases it
 * when the program freed it while active.
 */
static inline void mca_match_request_channel_done(mca_match_request_t *req)
{
    int32_t running = MCA_MATCH_HANDOFF_RUNNING;

    /* decide before completing: once complete, a waiting thread may free
     * and release the request at any moment */
    if (OPAL_UNLIKELY(!OPAL_THREAD_COMPARE_EXCHANGE_STRONG_32(&req->mr_handoff, &running,
                                                              MCA_MATCH_HANDOFF_COMPLETING))) {
        /* the program freed it while active: nobody waits for it */
        mca_match_base_release_later(&req->super);
        return;
    }
    /* a queue may hold it: its record stays in place meanwhile */
    ompi_request_owner_complete(&req->super);
}

/**
 * A channel half's completion of one start, its error (MPI_SUCCESS or the
 * transfer's) already in req_status: MPI_ERR_TRUNCATE where the transfer
 * succeeded but the sender's message was larger than the receive, and the
 * bytes moved, into req_status; then mca_match_request_channel_done.
 */
static inline void mca_match_request_channel_finish(mca_match_request_t *req, bool truncated,
                                                    size_t bytes)
{
    ompi_status_public_t *status = &req->super.req_status;

    /* the error is written only where it changes: most completions are
     * neither truncated nor failed */
    if (OPAL_UNLIKELY(truncated) && MPI_SUCCESS == status->MPI_ERROR) {
        status->MPI_ERROR = MPI_ERR_TRUNCATE;
    }
    status->_ucount = bytes;
    mca_match_request_channel_done(req);
}

/** A channel's MPI_Cancel that took back a receive not yet filled: the
 * start's completion, marked cancelled and empty. */
static inline void mca_match_request_channel_cancelled(mca_match_request_t *req)
{
    req->super.req_status._cancelled = 1;
    req->super.req_status._ucount = 0;
    mca_match_request_channel_done(req);
}


/**
 * Check that a request may be matched.
 *
 * @param[out] reason  why not, for the error message
 * @retval OMPI_SUCCESS
 * @retval OMPI_ERR_REQUEST        the program's error
 * @retval OMPI_ERR_NOT_SUPPORTED  a point-to-point request, but the PML
 *                                 does not describe its requests
 */
OMPI_DECLSPEC int mca_match_request_check(ompi_request_t *request, const char **reason);

/**
 * Begin matching count checked requests: replace each handle with a
 * matched request and start its match.  All of the operation's requests
 * are covered by op, which completes when all are matched.
 */
OMPI_DECLSPEC int mca_match_begin(size_t count, ompi_request_t **requests, mca_match_op_t **op);

/**
 * Called by the component (or the base) when a request's match is resolved.
 * On success request->mr_inner, mr_peer and mr_tag are set.
 */
OMPI_DECLSPEC void mca_match_request_matched(mca_match_request_t *request, int status);

/*
 * Per-pair channel selection, called by the pairing module under its lock.
 * A pair gets the first channel module, by priority, whose offer and accept
 * succeed; MCA_MATCH_CHANNEL_PML in the info means the pairing module's
 * own channel.
 */

/** Sender: fill the offer (the base's fields, and the first channel module
 * that offers).  An error fails the match (match_base_fallback false). */
OMPI_DECLSPEC int mca_match_base_channel_offer(mca_match_request_t *request,
                                               mca_match_channel_info_t *offer);

/** Receiver: set up the offered channel, or choose the fallback (accept's
 * channel says which).  An error fails the match. */
OMPI_DECLSPEC int mca_match_base_channel_accept(mca_match_request_t *request, int source,
                                                const mca_match_channel_info_t *offer,
                                                mca_match_channel_info_t *accept);

/** Sender: finish the channel the receiver chose, or release the offer
 * when it chose the fallback (then returns OMPI_ERR_NOT_FOUND: the pairing
 * module builds its own channel). */
OMPI_DECLSPEC int mca_match_base_channel_connect(mca_match_request_t *request,
                                                 const mca_match_channel_info_t *offer,
                                                 const mca_match_channel_info_t *accept);

/**
 * The arguments a persistent point-to-point request was created with, as
 * the selected PML describes them (its module's pml_describe).
 *
 * @retval false  not such a request, or the PML does not describe its
 *                requests
 */
OMPI_DECLSPEC bool mca_match_base_describe(const ompi_request_t *request,
                                           mca_match_p2p_desc_t *desc);

/** Take the selected PML's pml_describe (once it is selected), and forget it. */
OMPI_DECLSPEC int mca_match_base_describe_init(void);
OMPI_DECLSPEC void mca_match_base_describe_fini(void);

/**
 * Why no persistent point-to-point request can be matched at all: the
 * selected PML has no pml_describe (the reason names it), or no match
 * component is available.
 *
 * @return the reason, or NULL when the PML's requests can be described
 */
OMPI_DECLSPEC const char *mca_match_base_describe_refusal(void);

/**
 * Raise a matching error on the best error handler: the request's
 * communicator when it has one, else the default one.  The message names
 * the function and the reason.
 */
OMPI_DECLSPEC int mca_match_base_error(ompi_request_t *request, int err, const char *func,
                                       const char *reason);

/** The index of the second occurrence of a request that appears twice in
 * an array, or -1. */
OMPI_DECLSPEC int mca_match_base_find_duplicate(int count, ompi_request_t *const *requests);

/**
 * Check every request of an array.
 *
 * @param[out] bad     on error, the index of the request refused
 * @param[out] reason  on error, why, for the error message
 * @return MPI_SUCCESS, or the MPI error class to raise: MPI_ERR_REQUEST,
 *         or MPI_ERR_UNSUPPORTED_OPERATION where no request could be
 *         matched with this PML
 */
OMPI_DECLSPEC int mca_match_check_all(int count, ompi_request_t **requests, int *bad,
                                      const char **reason);

/** Internal requests to release from progress, outside completion
 * callbacks (mca_match_base_release_later, above). */
OMPI_DECLSPEC int mca_match_base_progress(void);

END_C_DECLS

#endif /* MCA_MATCH_BASE_MATCH_REQUEST_H */
