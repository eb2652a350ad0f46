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
#pragma weak MPI_Enqueue_start = PMPI_Enqueue_start
#endif
#define MPI_Enqueue_start PMPI_Enqueue_start
#endif

static const char FUNC_NAME[] = "MPI_Enqueue_start";

int MPI_Enqueue_start(MPI_Queue *queue, MPI_Request *request)
{
    mca_queue_base_refusal_t refusal;
    int ret;

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
    }
    if (NULL == queue || ompi_queue_invalid(*queue)) {
        return OMPI_ERRHANDLER_NOHANDLE_INVOKE(MPI_ERR_ARG, "MPI_Enqueue_start: the queue is "
                                               "MPI_QUEUE_NULL or was freed");
    }
    if (NULL == request) {
        return mca_match_base_error(NULL, MPI_ERR_REQUEST, FUNC_NAME, "request is a NULL pointer");
    }
    if (NULL == (*queue)->q_module->queue_enqueue_start) {
        return OMPI_ERRHANDLER_NOHANDLE_INVOKE(MPI_ERR_UNSUPPORTED_OPERATION,
                                               "MPI_Enqueue_start: not implemented for this "
                                               "queue type yet");
    }
    ret = (*queue)->q_module->queue_enqueue_start(*queue, 1, request, &refusal);
    if (OPAL_UNLIKELY(OMPI_SUCCESS != ret)) {
        return ompi_queue_enqueue_error(ret, request, &refusal, FUNC_NAME,
                                        "the start could not be enqueued");
    }
    return MPI_SUCCESS;
}
