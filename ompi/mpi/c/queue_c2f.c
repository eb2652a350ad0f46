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
#include "ompi/mpi/fortran/base/fint_2_int.h"
#include "ompi/mca/queue/base/queue_object.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPI_Queue_c2f = PMPI_Queue_c2f
#endif
#define MPI_Queue_c2f PMPI_Queue_c2f
#endif

static const char FUNC_NAME[] = "MPI_Queue_c2f";

MPI_Fint MPI_Queue_c2f(MPI_Queue queue)
{
    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
        /* like the other c2f functions: an invalid handle gets the
         * index of the null handle, with no error handler */
        if (ompi_queue_invalid(queue)) {
            return OMPI_INT_2_FINT(ompi_mpi_queue_null.queue.q_f_to_c_index);
        }
    }
    return OMPI_INT_2_FINT(queue->q_f_to_c_index);
}
