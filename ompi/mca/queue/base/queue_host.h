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
 * The host engine: executes a queue's starts and waits on the host, in the
 * order of section 13.4 of the chapter.  Used by the default component, and
 * the host side of every other queue type.
 *
 * A queue is a FIFO of entries, each a start group (one MPI_Enqueue_start
 * or _startall) or a wait group (one MPI_Enqueue_wait or _waitall).  The
 * head of the FIFO is advanced: a start group initiates its requests and
 * leaves; a wait group leaves once all its requests have completed, writing
 * their statuses.  A start therefore never initiates before every earlier
 * start initiated and every earlier wait completed, and a wait never
 * completes before every earlier wait.  An enqueued start on an idle queue
 * starts at once, with no entry and no allocation.
 */

#ifndef OMPI_MCA_QUEUE_BASE_QUEUE_HOST_H
#define OMPI_MCA_QUEUE_BASE_QUEUE_HOST_H

#include "ompi_config.h"

#include "opal/mca/threads/thread_usage.h"
#include "ompi/mca/match/base/match_request.h"
#include "ompi/mca/queue/base/queue_object.h"
#include "ompi/request/request.h"

BEGIN_C_DECLS

int ompi_queue_host_init(void);
void ompi_queue_host_fini(void);

/** Attach the host engine to a new queue / detach it from a freed one. */
int ompi_queue_host_create(ompi_queue_t *queue);
void ompi_queue_host_destroy(ompi_queue_t *queue);

/*
 * Triggered queues (GPU streams): the trigger engine.
 *
 * The queue's external context (a stream) executes the program's work in
 * order; two 64-bit counters in host memory it can write and read tie the
 * MPI operations into that order:
 *  - an enqueued start makes the context write counter TRIGGER = n (the n-th
 *    start of the queue); the host starts the group once it sees that value,
 *    and never before every earlier entry of the FIFO has run;
 *  - an enqueued wait makes the context wait until counter DONE >= m (the
 *    m-th wait); the host writes DONE = m when the group has completed and
 *    every earlier wait has.
 * The host side is the FIFO above with one more condition for starts, so the
 * progress callback walks each queue from its head, as for the default type.
 * A component supplies the operations below; the counters are its memory
 * (pinned and mapped to the device for a GPU).
 */
enum {
    OMPI_QUEUE_COUNTER_TRIGGER = 0,
    OMPI_QUEUE_COUNTER_DONE = 1,
};

typedef struct ompi_queue_trigger_ops_t {
    /** make the context write value into counter when it reaches this point */
    int (*post_write)(ompi_queue_t *queue, int counter, uint64_t value);
    /** make the context wait here until counter >= value */
    int (*post_wait)(ompi_queue_t *queue, int counter, uint64_t value);
    /** mark the context's current end (for the fence); never blocks */
    int (*mark)(ompi_queue_t *queue);
    /** OMPI_SUCCESS once the context has executed everything up to the
     * mark, OMPI_ERR_WOULD_BLOCK while not yet; never blocks */
    int (*marked_done)(ompi_queue_t *queue);
} ompi_queue_trigger_ops_t;

/**
 * Attach the host engine to a new triggered queue.
 *
 * @param[in] ops       the context's operations
 * @param[in] counters  host address of the two counters, zeroed
 * @param[in] ctx       the component's per-queue state (ompi_queue_host_ctx)
 */
int ompi_queue_host_create_triggered(ompi_queue_t *queue, const ompi_queue_trigger_ops_t *ops,
                                     volatile uint64_t *counters, void *ctx);

/** The component's per-queue state given at creation. */
void *ompi_queue_host_ctx(ompi_queue_t *queue);

int ompi_queue_host_enqueue_start(ompi_queue_t *queue, int count, ompi_request_t **requests);
int ompi_queue_host_enqueue_wait(ompi_queue_t *queue, int count, ompi_request_t **requests,
                                 ompi_status_public_t *statuses);
int ompi_queue_host_fence(ompi_queue_t *queue);

bool ompi_queue_host_busy(ompi_queue_t *queue);

/**
 * A queue's hold of a matched request, from its enqueued start until the
 * completion of its enqueued wait (request_owner.h): the request's
 * req_complete_cb is ompi_queue_owned_completed and its
 * req_complete_cb_data this record.  Kept by the queue's host engine.
 */
typedef struct ompi_queue_claim_t {
    ompi_queue_t *queue;
    int32_t starts;                   /**< enqueued starts whose wait has not completed */
    int32_t waits;                    /**< enqueued waits not completed */
    struct ompi_queue_claim_t *next;  /**< in the host engine's spare records */
} ompi_queue_claim_t;

/** The completion callback of the requests a queue holds (request_owner.h). */
OMPI_DECLSPEC int ompi_queue_owned_completed(ompi_request_t *req);

/** The queue's hold of req, NULL when no queue holds it. */
static inline ompi_queue_claim_t *ompi_queue_claim(const ompi_request_t *req)
{
    return (ompi_queue_owned_completed == req->req_complete_cb)
               ? (ompi_queue_claim_t *) req->req_complete_cb_data
               : NULL;
}

/** The matched request behind a handle, NULL for any other request. */
static inline mca_match_request_t *ompi_queue_matched(ompi_request_t *req)
{
    return mca_match_request_is(req) ? (mca_match_request_t *) req : NULL;
}

/* ompi_queue_check_one with the queue's lock held (queue_host.c) */
static inline int ompi_queue_check_one_held(ompi_queue_t *queue, ompi_request_t *req,
                                            bool is_wait, const char **reason)
{
    mca_match_request_t *mr;
    ompi_queue_claim_t *claim;

    if (OPAL_UNLIKELY(NULL == req || MPI_REQUEST_NULL == req
                      || OMPI_REQUEST_INVALID == req->req_state)) {
        *reason = "the request is MPI_REQUEST_NULL or was freed";
        return OMPI_ERR_REQUEST;
    }
    mr = ompi_queue_matched(req);
    if (OPAL_UNLIKELY(NULL == mr)) {
        if (OMPI_REQUEST_PART == req->req_type && req->req_persistent) {
            return OMPI_SUCCESS;
        }
        *reason = req->req_persistent
                      ? "the request is not matched (MPI_Match it first)"
                      : "only matched persistent or partitioned requests can be enqueued";
        return OMPI_ERR_REQUEST;
    }
    if (OPAL_UNLIKELY(MCA_MATCH_STATE_MATCHED != mr->mr_state)) {
        *reason = "the request's match has not completed";
        return OMPI_ERR_REQUEST;
    }
    claim = ompi_queue_claim(req);
    if (is_wait) {
        if (OPAL_UNLIKELY(NULL == claim || claim->queue != queue
                          || claim->waits >= claim->starts)) {
            *reason = "the request's start was not enqueued on this queue, or its wait "
                      "is already enqueued";
            return OMPI_ERR_REQUEST;
        }
    } else if (NULL == claim) {
        if (OPAL_UNLIKELY(OMPI_REQUEST_INACTIVE != req->req_state)) {
            *reason = "the request is active";
            return OMPI_ERR_REQUEST;
        }
    } else if (OPAL_UNLIKELY(claim->queue != queue || claim->waits != claim->starts)) {
        *reason = "the request's enqueued start is pending: enqueue its wait first, on the "
                  "same queue";
        return OMPI_ERR_REQUEST;
    }
    return OMPI_SUCCESS;
}

/** ompi_queue_check_one when threads are in use: under the queue's lock,
 * because another thread's progress may be retiring an earlier wait of the
 * same request (the counts change together). */
OMPI_DECLSPEC int ompi_queue_check_one_mt(ompi_queue_t *queue, ompi_request_t *req,
                                          bool is_wait, const char **reason);

/**
 * Check that one request may be started (is_wait false) or waited (is_wait
 * true) on this queue.  Inline: it is on the path of every enqueue call.
 * Partitioned requests carry no ownership record: their misuse is not
 * detected.
 *
 * @param[out] reason  why not
 * @retval OMPI_SUCCESS or OMPI_ERR_REQUEST
 */
static inline int ompi_queue_check_one(ompi_queue_t *queue, ompi_request_t *req, bool is_wait,
                                       const char **reason)
{
    if (OPAL_UNLIKELY(opal_using_threads())) {
        return ompi_queue_check_one_mt(queue, req, is_wait, reason);
    }
    return ompi_queue_check_one_held(queue, req, is_wait, reason);
}

/** The message of an enqueue that the queue's module refused. */
static inline const char *ompi_queue_enqueue_failure(int ret, const char *otherwise)
{
    return (OMPI_ERR_NOT_SUPPORTED == ret)
               ? "the queue's stream is being captured into a graph: enqueued operations "
                 "cannot be captured"
               : otherwise;
}

/**
 * Check that requests may be enqueued: started (is_wait false) or waited
 * (is_wait true) on this queue.  Nothing is changed.
 *
 * @param[out] bad     index of the first bad request
 * @param[out] reason  why
 */
OMPI_DECLSPEC int ompi_queue_check_requests(ompi_queue_t *queue, int count,
                                            ompi_request_t **requests, bool is_wait, int *bad,
                                            const char **reason);

END_C_DECLS

#endif /* OMPI_MCA_QUEUE_BASE_QUEUE_HOST_H */
