/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * mpif.h binding of MPI_Queue_fence, also called by the "use mpi" and
 * "use mpi_f08" bindings.  Built once in profile/ as the strong
 * ompi_queue_fence_f with weak MPI_ and PMPI_ names where the compiler has weak
 * symbols, else once per name set, as upstream's mpif-h bindings are.
 * Blocks until every start and wait enqueued on QUEUE has completed.
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/mpi/fortran/mpif-h/bindings.h"
#include "ompi/mpi/fortran/mpif-h/status-conversion.h"
#include "ompi/mpi/fortran/base/constants.h"
#include "ompi/mpi/fortran/base/fint_2_int.h"
#include "ompi/mpi/fortran/mpif-h/prototypes_queue.h"
#include "ompi/errhandler/errhandler.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak PMPI_QUEUE_FENCE = ompi_queue_fence_f
#pragma weak pmpi_queue_fence = ompi_queue_fence_f
#pragma weak pmpi_queue_fence_ = ompi_queue_fence_f
#pragma weak pmpi_queue_fence__ = ompi_queue_fence_f
#else
OMPI_GENERATE_F77_BINDINGS(PMPI_QUEUE_FENCE, pmpi_queue_fence, pmpi_queue_fence_, pmpi_queue_fence__,
                           pompi_queue_fence_f, (MPI_Fint *queue, MPI_Fint *ierr), (queue, ierr))
#endif
#endif

#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPI_QUEUE_FENCE = ompi_queue_fence_f
#pragma weak mpi_queue_fence = ompi_queue_fence_f
#pragma weak mpi_queue_fence_ = ompi_queue_fence_f
#pragma weak mpi_queue_fence__ = ompi_queue_fence_f
#else
#if !OMPI_BUILD_MPI_PROFILING
OMPI_GENERATE_F77_BINDINGS(MPI_QUEUE_FENCE, mpi_queue_fence, mpi_queue_fence_, mpi_queue_fence__,
                           ompi_queue_fence_f, (MPI_Fint *queue, MPI_Fint *ierr), (queue, ierr))
#else
#define ompi_queue_fence_f pompi_queue_fence_f
#endif
#endif

void ompi_queue_fence_f(MPI_Fint *queue, MPI_Fint *ierr)
{
    int c_ierr;
    MPI_Queue c_queue = PMPI_Queue_f2c(*queue);

    c_ierr = PMPI_Queue_fence(&c_queue);
    if (NULL != ierr) {
        *ierr = OMPI_INT_2_FINT(c_ierr);
    }
}
