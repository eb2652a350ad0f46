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
#pragma weak MPI_Queue_fence = PMPI_Queue_fence
#endif
#define MPI_Queue_fence PMPI_Queue_fence
#endif

static const char FUNC_NAME[] = "MPI_Queue_fence";

int MPI_Queue_fence(MPI_Queue *queue)
{
    int ret;

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
    }
    if (NULL == queue || ompi_queue_invalid(*queue)) {
        return OMPI_ERRHANDLER_NOHANDLE_INVOKE(MPI_ERR_ARG, "MPI_Queue_fence: the queue is "
                                               "MPI_QUEUE_NULL or was freed");
    }
    if (NULL == (*queue)->q_module->queue_fence) {
        return OMPI_ERRHANDLER_NOHANDLE_INVOKE(MPI_ERR_UNSUPPORTED_OPERATION,
                                               "MPI_Queue_fence: not implemented for this "
                                               "queue type yet");
    }
    ret = (*queue)->q_module->queue_fence(*queue);
    if (MPI_SUCCESS != ret) {
        return OMPI_ERRHANDLER_NOHANDLE_INVOKE(ret, "MPI_Queue_fence: an enqueued operation "
                                               "failed; the queue started nothing after it");
    }
    return MPI_SUCCESS;
}
