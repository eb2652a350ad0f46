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
 * mpif.h binding of MPI_Enqueue_start, also called by the "use mpi" and
 * "use mpi_f08" bindings.  Built once in profile/ as the strong
 * ompi_enqueue_start_f with weak MPI_ and PMPI_ names where the compiler has weak
 * symbols, else once per name set, as upstream's mpif-h bindings are.
 * The queue copies the request handle: nothing here outlives the call.
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
#pragma weak PMPI_ENQUEUE_START = ompi_enqueue_start_f
#pragma weak pmpi_enqueue_start = ompi_enqueue_start_f
#pragma weak pmpi_enqueue_start_ = ompi_enqueue_start_f
#pragma weak pmpi_enqueue_start__ = ompi_enqueue_start_f
#else
OMPI_GENERATE_F77_BINDINGS(PMPI_ENQUEUE_START, pmpi_enqueue_start, pmpi_enqueue_start_, pmpi_enqueue_start__,
                           pompi_enqueue_start_f, (MPI_Fint *queue, MPI_Fint *request, MPI_Fint *ierr), (queue, request, ierr))
#endif
#endif

#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPI_ENQUEUE_START = ompi_enqueue_start_f
#pragma weak mpi_enqueue_start = ompi_enqueue_start_f
#pragma weak mpi_enqueue_start_ = ompi_enqueue_start_f
#pragma weak mpi_enqueue_start__ = ompi_enqueue_start_f
#else
#if !OMPI_BUILD_MPI_PROFILING
OMPI_GENERATE_F77_BINDINGS(MPI_ENQUEUE_START, mpi_enqueue_start, mpi_enqueue_start_, mpi_enqueue_start__,
                           ompi_enqueue_start_f, (MPI_Fint *queue, MPI_Fint *request, MPI_Fint *ierr), (queue, request, ierr))
#else
#define ompi_enqueue_start_f pompi_enqueue_start_f
#endif
#endif

void ompi_enqueue_start_f(MPI_Fint *queue, MPI_Fint *request, MPI_Fint *ierr)
{
    int c_ierr;
    MPI_Queue c_queue = PMPI_Queue_f2c(*queue);
    MPI_Request c_req = PMPI_Request_f2c(*request);

    c_ierr = PMPI_Enqueue_start(&c_queue, &c_req);
    if (NULL != ierr) {
        *ierr = OMPI_INT_2_FINT(c_ierr);
    }
}
