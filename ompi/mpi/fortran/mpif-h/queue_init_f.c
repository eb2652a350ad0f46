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
 * mpif.h binding of MPI_Queue_init, also called by the "use mpi" and
 * "use mpi_f08" bindings.  Built once in profile/ as the strong
 * ompi_queue_init_f with weak MPI_ and PMPI_ names where the compiler has weak
 * symbols, else once per name set, as upstream's mpif-h bindings are.
 * EXTERNAL is a choice argument: Fortran passes the address of the
 * caller's variable, which is what the C binding takes (for a CUDA stream
 * queue, the address of a cudaStream_t).
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
#pragma weak PMPI_QUEUE_INIT = ompi_queue_init_f
#pragma weak pmpi_queue_init = ompi_queue_init_f
#pragma weak pmpi_queue_init_ = ompi_queue_init_f
#pragma weak pmpi_queue_init__ = ompi_queue_init_f
#else
OMPI_GENERATE_F77_BINDINGS(PMPI_QUEUE_INIT, pmpi_queue_init, pmpi_queue_init_, pmpi_queue_init__,
                           pompi_queue_init_f, (MPI_Fint *queue, MPI_Fint *type, char *external, MPI_Fint *ierr), (queue, type, external, ierr))
#endif
#endif

#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPI_QUEUE_INIT = ompi_queue_init_f
#pragma weak mpi_queue_init = ompi_queue_init_f
#pragma weak mpi_queue_init_ = ompi_queue_init_f
#pragma weak mpi_queue_init__ = ompi_queue_init_f
#else
#if !OMPI_BUILD_MPI_PROFILING
OMPI_GENERATE_F77_BINDINGS(MPI_QUEUE_INIT, mpi_queue_init, mpi_queue_init_, mpi_queue_init__,
                           ompi_queue_init_f, (MPI_Fint *queue, MPI_Fint *type, char *external, MPI_Fint *ierr), (queue, type, external, ierr))
#else
#define ompi_queue_init_f pompi_queue_init_f
#endif
#endif

void ompi_queue_init_f(MPI_Fint *queue, MPI_Fint *type, char *external, MPI_Fint *ierr)
{
    int c_ierr;
    MPI_Queue c_queue = MPI_QUEUE_NULL;

    c_ierr = PMPI_Queue_init(&c_queue, OMPI_FINT_2_INT(*type), external);
    if (NULL != ierr) {
        *ierr = OMPI_INT_2_FINT(c_ierr);
    }
    if (MPI_SUCCESS == c_ierr) {
        *queue = PMPI_Queue_c2f(c_queue);
    }
}
