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
#pragma weak MPI_Enqueue_startall = PMPI_Enqueue_startall
#endif
#define MPI_Enqueue_startall PMPI_Enqueue_startall
#endif

static const char FUNC_NAME[] = "MPI_Enqueue_startall";

int MPI_Enqueue_startall(MPI_Queue *queue, int count, MPI_Request array_of_requests[])
{
    mca_queue_base_refusal_t refusal;
    int ret;

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
    }
    if (NULL == queue || ompi_queue_invalid(*queue)) {
        return OMPI_ERRHANDLER_NOHANDLE_INVOKE(MPI_ERR_ARG, "MPI_Enqueue_startall: the queue is "
                                               "MPI_QUEUE_NULL or was freed");
    }
    if (0 > count || (0 < count && NULL == array_of_requests)) {
        return OMPI_ERRHANDLER_NOHANDLE_INVOKE(MPI_ERR_ARG, "MPI_Enqueue_startall: count is "
                                               "negative or the array is NULL");
    }
    if (0 == count) {
        return MPI_SUCCESS;
    }
    if (NULL == (*queue)->q_module->queue_enqueue_start) {
        return OMPI_ERRHANDLER_NOHANDLE_INVOKE(MPI_ERR_UNSUPPORTED_OPERATION,
                                               "MPI_Enqueue_startall: not implemented for this "
                                               "queue type yet");
    }
    ret = (*queue)->q_module->queue_enqueue_start(*queue, count, array_of_requests, &refusal);
    if (OPAL_UNLIKELY(OMPI_SUCCESS != ret)) {
        return ompi_queue_enqueue_error(ret, array_of_requests, &refusal, FUNC_NAME,
                                        "the starts could not be enqueued");
    }
    return MPI_SUCCESS;
}
