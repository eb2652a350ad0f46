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

#include "ompi/mca/match/base/match_request.h"
#include "ompi/mca/queue/base/queue_object.h"
#include "ompi/request/request.h"

BEGIN_C_DECLS

/**
 * The first checks of every enqueue, eager or captured: the request exists
 * and is a matched request whose match completed (a persistent partitioned
 * request passes too where partitioned is true: it carries no hold).
 *
 * @return NULL, or why the request cannot be enqueued
 */
static inline const char *ompi_queue_request_unusable(const ompi_request_t *req, bool partitioned)
{
    if (OPAL_UNLIKELY(NULL == req || MPI_REQUEST_NULL == req
                      || OMPI_REQUEST_INVALID == req->req_state)) {
        return "the request is MPI_REQUEST_NULL or was freed";
    }
    if (OPAL_UNLIKELY(!mca_match_request_is(req))) {
        if (OMPI_REQUEST_PART == req->req_type && req->req_persistent) {
            return partitioned ? NULL : "a partitioned request cannot be enqueued here";
        }
        return req->req_persistent ? "the request is not matched (MPI_Match it first)"
                                   : "only matched persistent or partitioned requests can be "
                                     "enqueued";
    }
    if (OPAL_UNLIKELY(MCA_MATCH_STATE_MATCHED
                      != ((const mca_match_request_t *) req)->mr_state)) {
        return "the request's match has not completed";
    }
    return NULL;
}

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
    /** Called first by every enqueue, with the queue's lock held: when the
     * context is being recorded into a graph, enqueue the group there
     * (checks and refusal as the module slots of queue.h) and return what
     * that returned; otherwise return OMPI_ERR_NOT_FOUND and the enqueue
     * goes on as usual.  NULL: the context is never recorded. */
    int (*capture)(ompi_queue_t *queue, bool is_wait, int count, ompi_request_t **requests,
                   ompi_status_public_t *statuses, mca_queue_base_refusal_t *refusal);
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

/** An error of the queue's work that ran outside its FIFO (a captured
 * graph's launch), for the next fence to return, as the FIFO's own errors
 * are.  Any thread; takes no lock. */
void ompi_queue_host_report_error(ompi_queue_t *queue, int error);

/* the module slots of queue.h: checks and refusal as documented there
 * (exported: a component built as a shared object takes them) */
OMPI_DECLSPEC int ompi_queue_host_enqueue_start(ompi_queue_t *queue, int count,
                                                ompi_request_t **requests,
                                                mca_queue_base_refusal_t *refusal);
OMPI_DECLSPEC int ompi_queue_host_enqueue_wait(ompi_queue_t *queue, int count,
                                               ompi_request_t **requests,
                                               ompi_status_public_t *statuses,
                                               mca_queue_base_refusal_t *refusal);
OMPI_DECLSPEC int ompi_queue_host_fence(ompi_queue_t *queue);

OMPI_DECLSPEC bool ompi_queue_host_busy(ompi_queue_t *queue);

END_C_DECLS

#endif /* OMPI_MCA_QUEUE_BASE_QUEUE_HOST_H */
