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
#include "ompi/mca/match/base/match_request.h"
#include "ompi/mca/queue/base/queue_host.h"
#include "ompi/mca/queue/base/queue_object.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPI_Enqueue_waitall = PMPI_Enqueue_waitall
#endif
#define MPI_Enqueue_waitall PMPI_Enqueue_waitall
#endif

static const char FUNC_NAME[] = "MPI_Enqueue_waitall";

int MPI_Enqueue_waitall(MPI_Queue *queue, int count, MPI_Request array_of_requests[],
                        MPI_Status array_of_statuses[])
{
    mca_queue_base_refusal_t refusal;
    int ret;

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
    }
    if (NULL == queue || ompi_queue_invalid(*queue)) {
        return OMPI_ERRHANDLER_NOHANDLE_INVOKE(MPI_ERR_ARG, "MPI_Enqueue_waitall: the queue is "
                                               "MPI_QUEUE_NULL or was freed");
    }
    if (0 > count || (0 < count && NULL == array_of_requests)) {
        return OMPI_ERRHANDLER_NOHANDLE_INVOKE(MPI_ERR_ARG, "MPI_Enqueue_waitall: count is "
                                               "negative or the array is NULL");
    }
    if (0 == count) {
        return MPI_SUCCESS;
    }
    if (NULL == (*queue)->q_module->queue_enqueue_wait) {
        return OMPI_ERRHANDLER_NOHANDLE_INVOKE(MPI_ERR_UNSUPPORTED_OPERATION,
                                               "MPI_Enqueue_waitall: not implemented for this "
                                               "queue type yet");
    }
    ret = (*queue)->q_module->queue_enqueue_wait(
        *queue, count, array_of_requests,
        MPI_STATUSES_IGNORE == array_of_statuses ? NULL : array_of_statuses, &refusal);
    if (OPAL_UNLIKELY(OMPI_SUCCESS != ret)) {
        return ompi_queue_enqueue_error(ret, array_of_requests, &refusal, FUNC_NAME,
                                        "the waits could not be enqueued");
    }
    return MPI_SUCCESS;
}
