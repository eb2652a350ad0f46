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

#include <stdlib.h>

#include "opal/util/printf.h"
#include "ompi/mpi/c/bindings.h"
#include "ompi/runtime/params.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/mca/queue/base/queue_object.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPI_Queue_init = PMPI_Queue_init
#endif
#define MPI_Queue_init PMPI_Queue_init
#endif

static const char FUNC_NAME[] = "MPI_Queue_init";

int MPI_Queue_init(MPI_Queue *queue, int type, void *external)
{
    ompi_queue_t *newqueue = NULL;
    char *msg = NULL;
    int ret;

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
        if (NULL == queue) {
            return OMPI_ERRHANDLER_NOHANDLE_INVOKE(MPI_ERR_ARG,
                                                   "MPI_Queue_init: queue is a NULL pointer");
        }
    }

    ret = ompi_queue_create(type, external, &newqueue, &msg);
    if (OPAL_UNLIKELY(OMPI_SUCCESS != ret)) {
        int err = (OMPI_ERR_BAD_PARAM == ret) ? MPI_ERR_ARG : ompi_errcode_get_mpi_code(ret);
        char *text = NULL;

        if (NULL != msg && 0 < opal_asprintf(&text, "%s: %s", FUNC_NAME, msg)) {
            err = OMPI_ERRHANDLER_NOHANDLE_INVOKE(err, text);
        } else {
            err = OMPI_ERRHANDLER_NOHANDLE_INVOKE(err, FUNC_NAME);
        }
        free(text);
        free(msg);
        return err;
    }

    *queue = newqueue;
    return MPI_SUCCESS;
}
