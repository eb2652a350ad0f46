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
 * mpif.h binding of MPI_Queue_free, also called by the "use mpi" and
 * "use mpi_f08" bindings.  Built once in profile/ as the strong
 * ompi_queue_free_f with weak MPI_ and PMPI_ names where the compiler has weak
 * symbols, else once per name set, as upstream's mpif-h bindings are.
 * A refused call leaves QUEUE as it was, as in C.
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
#pragma weak PMPI_QUEUE_FREE = ompi_queue_free_f
#pragma weak pmpi_queue_free = ompi_queue_free_f
#pragma weak pmpi_queue_free_ = ompi_queue_free_f
#pragma weak pmpi_queue_free__ = ompi_queue_free_f
#else
OMPI_GENERATE_F77_BINDINGS(PMPI_QUEUE_FREE, pmpi_queue_free, pmpi_queue_free_, pmpi_queue_free__,
                           pompi_queue_free_f, (MPI_Fint *queue, MPI_Fint *ierr), (queue, ierr))
#endif
#endif

#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPI_QUEUE_FREE = ompi_queue_free_f
#pragma weak mpi_queue_free = ompi_queue_free_f
#pragma weak mpi_queue_free_ = ompi_queue_free_f
#pragma weak mpi_queue_free__ = ompi_queue_free_f
#else
#if !OMPI_BUILD_MPI_PROFILING
OMPI_GENERATE_F77_BINDINGS(MPI_QUEUE_FREE, mpi_queue_free, mpi_queue_free_, mpi_queue_free__,
                           ompi_queue_free_f, (MPI_Fint *queue, MPI_Fint *ierr), (queue, ierr))
#else
#define ompi_queue_free_f pompi_queue_free_f
#endif
#endif

void ompi_queue_free_f(MPI_Fint *queue, MPI_Fint *ierr)
{
    int c_ierr;
    MPI_Queue c_queue = PMPI_Queue_f2c(*queue);

    c_ierr = PMPI_Queue_free(&c_queue);
    if (NULL != ierr) {
        *ierr = OMPI_INT_2_FINT(c_ierr);
    }
    if (MPI_SUCCESS == c_ierr) {
        *queue = PMPI_Queue_c2f(c_queue);
    }
}
