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
 * mpif.h binding of MPI_Enqueue_wait, also called by the "use mpi" and
 * "use mpi_f08" bindings.  Built once in profile/ as the strong
 * ompi_enqueue_wait_f with weak MPI_ and PMPI_ names where the compiler has weak
 * symbols, else once per name set, as upstream's mpif-h bindings are.
 * The status is written when the enqueued wait executes, after this call
 * has returned: the queue gets the caller's Fortran status itself, which
 * has the layout of a C MPI_Status when a Fortran INTEGER is a C int.
 * Where it is not, there is no memory of ours that lives long enough to
 * convert from, and a status other than MPI_STATUS_IGNORE is refused.
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
#pragma weak PMPI_ENQUEUE_WAIT = ompi_enqueue_wait_f
#pragma weak pmpi_enqueue_wait = ompi_enqueue_wait_f
#pragma weak pmpi_enqueue_wait_ = ompi_enqueue_wait_f
#pragma weak pmpi_enqueue_wait__ = ompi_enqueue_wait_f
#else
OMPI_GENERATE_F77_BINDINGS(PMPI_ENQUEUE_WAIT, pmpi_enqueue_wait, pmpi_enqueue_wait_, pmpi_enqueue_wait__,
                           pompi_enqueue_wait_f, (MPI_Fint *queue, MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierr), (queue, request, status, ierr))
#endif
#endif

#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPI_ENQUEUE_WAIT = ompi_enqueue_wait_f
#pragma weak mpi_enqueue_wait = ompi_enqueue_wait_f
#pragma weak mpi_enqueue_wait_ = ompi_enqueue_wait_f
#pragma weak mpi_enqueue_wait__ = ompi_enqueue_wait_f
#else
#if !OMPI_BUILD_MPI_PROFILING
OMPI_GENERATE_F77_BINDINGS(MPI_ENQUEUE_WAIT, mpi_enqueue_wait, mpi_enqueue_wait_, mpi_enqueue_wait__,
                           ompi_enqueue_wait_f, (MPI_Fint *queue, MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierr), (queue, request, status, ierr))
#else
#define ompi_enqueue_wait_f pompi_enqueue_wait_f
#endif
#endif

void ompi_enqueue_wait_f(MPI_Fint *queue, MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierr)
{
    int c_ierr;
    MPI_Queue c_queue = PMPI_Queue_f2c(*queue);
    MPI_Request c_req = PMPI_Request_f2c(*request);
    MPI_Status *c_status = MPI_STATUS_IGNORE;

    if (!OMPI_IS_FORTRAN_STATUS_IGNORE(status)) {
#if OMPI_FORTRAN_STATUS_NEED_CONVERSION_1
        c_ierr = OMPI_ERRHANDLER_NOHANDLE_INVOKE(MPI_ERR_UNSUPPORTED_OPERATION,
                                                 "MPI_ENQUEUE_WAIT: a Fortran INTEGER is not a C "
                                                 "int here: pass MPI_STATUS_IGNORE");
        if (NULL != ierr) {
            *ierr = OMPI_INT_2_FINT(c_ierr);
        }
        return;
#else
        c_status = (MPI_Status *) status;
#endif
    }
    c_ierr = PMPI_Enqueue_wait(&c_queue, &c_req, c_status);
    if (NULL != ierr) {
        *ierr = OMPI_INT_2_FINT(c_ierr);
    }
}
