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
 * Queue framework: executes the starts and waits that a program enqueues on
 * an MPI_Queue, in the order of the chapter "Queued Communication".
 *
 * Selection is per queue, not per process.  At framework open every
 * component's init function is called once; each component that returns a
 * module stays available.  MPI_Queue_init(type, external) then asks every
 * available module whether it serves (type, external) and gives the queue to
 * the one with the highest priority that says yes.  The framework selection
 * variable (OMPI_MCA_queue, --mca queue ...) therefore decides which
 * components may serve queues at all.
 *
 * Components:
 *  - default: MPI_QUEUE_TYPE_DEFAULT, executed by the host
 *  - cuda:    MPIX_QUEUE_TYPE_CUDA_STREAM, ordered with a CUDA stream
 *  - hip:     MPIX_QUEUE_TYPE_HIP_STREAM, ordered with a HIP stream
 */

#ifndef OMPI_MCA_QUEUE_QUEUE_H
#define OMPI_MCA_QUEUE_QUEUE_H

#include "ompi_config.h"

#include "mpi.h"
/* mpi.h includes it only --with-queue; the base is built either way */
#include "mpi_queue.h"
#include "ompi/mca/mca.h"
#include "opal/mca/base/base.h"

BEGIN_C_DECLS

struct ompi_queue_t;
struct ompi_request_t;
struct mca_queue_base_module_t;

/**
 * Component initialization.
 *
 * Called once at framework open.  A component that cannot work in this
 * process (no driver, no device, disabled by a parameter) returns NULL and
 * says why on the framework's verbose stream; that is not an error.
 *
 * @param[out] priority  priority of the returned module
 * @return the module, or NULL when the component declines
 */
typedef struct mca_queue_base_module_t *(*mca_queue_base_component_init_fn_t)(int *priority);

/**
 * Component finalization: release what init acquired.  Called at framework
 * close, only for components whose init returned a module.
 */
typedef int (*mca_queue_base_component_finalize_fn_t)(void);

/**
 * Queue component, version 1.0.0
 */
typedef struct mca_queue_base_component_1_0_0_t {
    mca_base_component_t queuem_version;
    mca_base_component_data_t queuem_data;
    mca_queue_base_component_init_fn_t queuem_init;
    mca_queue_base_component_finalize_fn_t queuem_finalize;
} mca_queue_base_component_1_0_0_t;
typedef mca_queue_base_component_1_0_0_t mca_queue_base_component_t;

/**
 * Does this module serve a queue of this type with this external context?
 *
 * @param[in]  module    the module asked
 * @param[in]  type      the type given to MPI_Queue_init
 * @param[in]  external  the external argument of MPI_Queue_init
 * @param[out] reason    when the type is the module's own but the queue
 *                       cannot be created (no device, NULL external), a
 *                       static string saying why
 *
 * @retval OMPI_SUCCESS            the module serves it
 * @retval OMPI_ERR_NOT_SUPPORTED  the type is not this module's
 * @retval OMPI_ERR_BAD_PARAM      the type is the module's, but external is
 *                                 unusable (*reason says why)
 * @retval OMPI_ERR_NOT_AVAILABLE  the type is the module's, but the module
 *                                 cannot serve it here (*reason says why)
 */
typedef int (*mca_queue_base_module_query_fn_t)(struct mca_queue_base_module_t *module,
                                                int type, void *external,
                                                const char **reason);

/**
 * Set up the module's part of a new queue (queue->q_module is already set;
 * module-private state goes in queue->q_module_data).  On failure nothing
 * must be left allocated.
 */
typedef int (*mca_queue_base_module_queue_create_fn_t)(struct ompi_queue_t *queue,
                                                       void *external);

/**
 * Release the module's part of a queue that has no incomplete entries.
 */
typedef int (*mca_queue_base_module_queue_destroy_fn_t)(struct ompi_queue_t *queue);

/**
 * Why an enqueue refused its requests: the first request that may not be
 * enqueued and the reason, for the binding's error message.
 */
typedef struct mca_queue_base_refusal_t {
    int index;           /**< index of the refused request */
    const char *reason;  /**< static string */
} mca_queue_base_refusal_t;

/**
 * Enqueue the start of count requests (one group: they may initiate in any
 * order).  The module must not fail part-way: either all are enqueued or
 * none.
 *
 * The module checks the requests itself, in the same critical section as
 * the enqueue (the host engine: ompi_queue_host_enqueue_start), so that
 * another thread's completion cannot come between the check and the
 * enqueue.  A request that may not be started on this queue (see the
 * chapter's rules: matched, inactive or waited on this queue, not twice in
 * the group) makes it return OMPI_ERR_REQUEST with *refusal filled and
 * nothing enqueued.  refusal NULL: the caller vouches for the requests (an
 * extension enqueuing requests it made itself) and nothing is checked.
 * Called by the thread that calls the binding.
 */
typedef int (*mca_queue_base_module_enqueue_start_fn_t)(struct ompi_queue_t *queue, int count,
                                                        struct ompi_request_t **requests,
                                                        mca_queue_base_refusal_t *refusal);

/**
 * Enqueue a wait for count requests started on this queue (one group).
 * statuses is NULL when ignored; otherwise statuses[i] is written when the
 * wait of requests[i] completes.  Checks and refusal as for
 * enqueue_start: a request whose start was not enqueued on this queue, or
 * whose wait already is, is refused.
 */
typedef int (*mca_queue_base_module_enqueue_wait_fn_t)(struct ompi_queue_t *queue, int count,
                                                       struct ompi_request_t **requests,
                                                       ompi_status_public_t *statuses,
                                                       mca_queue_base_refusal_t *refusal);

/**
 * Block until every entry of the queue has completed.  Returns the first
 * error of an operation of the queue since the last fence (and forgets it).
 */
typedef int (*mca_queue_base_module_fence_fn_t)(struct ompi_queue_t *queue);

/** Whether the queue has entries that have not completed. */
typedef bool (*mca_queue_base_module_busy_fn_t)(struct ompi_queue_t *queue);

/**
 * Queue module, version 1.0.0: one per component, shared by all its queues.
 */
typedef struct mca_queue_base_module_t {
    /** the component this module belongs to */
    const mca_queue_base_component_t *queue_component;
    /** priority among the modules that serve a type */
    int queue_priority;
    mca_queue_base_module_query_fn_t queue_query;
    mca_queue_base_module_queue_create_fn_t queue_create;
    mca_queue_base_module_queue_destroy_fn_t queue_destroy;
    mca_queue_base_module_enqueue_start_fn_t queue_enqueue_start;
    mca_queue_base_module_enqueue_wait_fn_t queue_enqueue_wait;
    mca_queue_base_module_fence_fn_t queue_fence;
    mca_queue_base_module_busy_fn_t queue_busy;
} mca_queue_base_module_t;

/*
 * Macro for use in components that are of type queue
 */
#define MCA_QUEUE_BASE_VERSION_1_0_0 OMPI_MCA_BASE_VERSION_2_1_0("queue", 1, 0, 0)

END_C_DECLS

#endif /* OMPI_MCA_QUEUE_QUEUE_H */
