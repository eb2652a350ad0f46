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

#include "ompi/mpi/c/bindings.h"
#include "ompi/runtime/params.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/mca/queue/base/queue_object.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPI_Queue_free = PMPI_Queue_free
#endif
#define MPI_Queue_free PMPI_Queue_free
#endif

static const char FUNC_NAME[] = "MPI_Queue_free";

int MPI_Queue_free(MPI_Queue *queue)
{
    int ret, err;

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
        if (NULL == queue) {
            return OMPI_ERRHANDLER_NOHANDLE_INVOKE(MPI_ERR_ARG,
                                                   "MPI_Queue_free: queue is a NULL pointer");
        }
        if (ompi_queue_invalid(*queue)) {
            return OMPI_ERRHANDLER_NOHANDLE_INVOKE(MPI_ERR_ARG,
                                                   "MPI_Queue_free: the queue is MPI_QUEUE_NULL "
                                                   "or was already freed");
        }
    }

    if (NULL != (*queue)->q_module->queue_busy && (*queue)->q_module->queue_busy(*queue)) {
        return OMPI_ERRHANDLER_NOHANDLE_INVOKE(MPI_ERR_PENDING,
                                               "MPI_Queue_free: the queue has enqueued operations "
                                               "that have not completed, or requests started "
                                               "through it whose waits were not enqueued "
                                               "(enqueue their waits, then MPI_Queue_fence)");
    }
    /* an operation that failed since the last fence is reported here too;
     * the queue is empty, so this fence does not block */
    err = (NULL != (*queue)->q_module->queue_fence) ? (*queue)->q_module->queue_fence(*queue)
                                                     : MPI_SUCCESS;
    ret = ompi_queue_release(*queue);
    if (OPAL_UNLIKELY(OMPI_SUCCESS != ret)) {
        return OMPI_ERRHANDLER_NOHANDLE_INVOKE(ompi_errcode_get_mpi_code(ret), FUNC_NAME);
    }
    *queue = MPI_QUEUE_NULL;
    if (MPI_SUCCESS != err) {
        return OMPI_ERRHANDLER_NOHANDLE_INVOKE(err, "MPI_Queue_free: an enqueued operation failed "
                                               "since the last fence (the queue is freed)");
    }
    return MPI_SUCCESS;
}
