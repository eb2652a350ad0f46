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
 * The MPI_Queue object.
 *
 * Freed queue objects are not returned to the heap at once: they wait, marked
 * freed, in a FIFO of retired objects and are reused only when that FIFO is
 * long.  A stale copy of a freed handle therefore points at mapped memory that
 * says "freed", and the bindings refuse it with MPI_ERR_ARG instead of reading
 * freed memory.
 */

#ifndef OMPI_MCA_QUEUE_BASE_QUEUE_OBJECT_H
#define OMPI_MCA_QUEUE_BASE_QUEUE_OBJECT_H

#include "ompi_config.h"

#include "opal/class/opal_list.h"
#include "opal/class/opal_pointer_array.h"
#include "ompi/mca/queue/queue.h"
#include "ompi/request/request.h"

BEGIN_C_DECLS

typedef enum {
    OMPI_QUEUE_STATE_NULL = 0,   /**< MPI_QUEUE_NULL */
    OMPI_QUEUE_STATE_LIVE = 1,   /**< returned by MPI_Queue_init */
    OMPI_QUEUE_STATE_FREED = 2,  /**< passed to MPI_Queue_free */
} ompi_queue_state_t;

struct ompi_queue_t {
    opal_list_item_t super;          /**< links retired objects */
    int q_f_to_c_index;              /**< index in ompi_queue_f_to_c_table */
    volatile ompi_queue_state_t q_state;
    int q_type;                      /**< type given to MPI_Queue_init */
    void *q_external;                /**< external given to MPI_Queue_init */
    mca_queue_base_module_t *q_module;  /**< module serving this queue */
    void *q_module_data;             /**< the module's per-queue state */
};
typedef struct ompi_queue_t ompi_queue_t;

OMPI_DECLSPEC OBJ_CLASS_DECLARATION(ompi_queue_t);

/* Keep the predefined object's size fixed across changes of ompi_queue_t. */
#define PREDEFINED_QUEUE_PAD 256

struct ompi_predefined_queue_t {
    struct ompi_queue_t queue;
    char padding[PREDEFINED_QUEUE_PAD - sizeof(ompi_queue_t)];
};
typedef struct ompi_predefined_queue_t ompi_predefined_queue_t;

OMPI_DECLSPEC extern ompi_predefined_queue_t ompi_mpi_queue_null;
OMPI_DECLSPEC extern opal_pointer_array_t ompi_queue_f_to_c_table;

/** True when the handle is not a live queue (NULL, MPI_QUEUE_NULL, freed). */
static inline bool ompi_queue_invalid(const ompi_queue_t *queue)
{
    return NULL == queue || OMPI_QUEUE_STATE_LIVE != queue->q_state;
}

/**
 * Create a queue served by the best available module.
 *
 * @param[in]  type      queue type
 * @param[in]  external  external context (meaning set by the type)
 * @param[out] queue     the new queue
 * @param[out] msg       on error, a message naming the type and the reason;
 *                       the caller frees it
 *
 * @retval OMPI_SUCCESS
 * @retval OMPI_ERR_BAD_PARAM  unknown type, unusable external, or a type
 *                             that no available component can serve
 * @retval other               resource errors
 */
OMPI_DECLSPEC int ompi_queue_create(int type, void *external, ompi_queue_t **queue, char **msg);

/**
 * Release a queue and retire its object.  The caller has checked that it
 * has no incomplete entries.
 */
OMPI_DECLSPEC int ompi_queue_release(ompi_queue_t *queue);

/**
 * Report an enqueue that the queue's module did not take, for the enqueue
 * bindings: a refused request (OMPI_ERR_REQUEST: the refusal names it and
 * why) or another failure (the group's first request, and what failed),
 * through the request's communicator's handler as the matching functions
 * report theirs.  Out of line, so that the bindings' success path carries
 * none of it.
 *
 * @param[in] ret       the module's return code
 * @param[in] requests  the group given to the module
 * @param[in] refusal   filled by the module when ret is OMPI_ERR_REQUEST
 * @param[in] func      the binding's name
 * @param[in] what      message of any other failure
 * @return the MPI error class, after the handler ran
 */
OMPI_DECLSPEC int ompi_queue_enqueue_error(int ret, ompi_request_t **requests,
                                           const mca_queue_base_refusal_t *refusal,
                                           const char *func, const char *what);

END_C_DECLS

#endif /* OMPI_MCA_QUEUE_BASE_QUEUE_OBJECT_H */
