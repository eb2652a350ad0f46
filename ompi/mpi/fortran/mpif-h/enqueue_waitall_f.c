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
 * mpif.h binding of MPI_Enqueue_waitall, also called by the "use mpi" and
 * "use mpi_f08" bindings.  Built once in profile/ as the strong
 * ompi_enqueue_waitall_f with weak MPI_ and PMPI_ names where the compiler has weak
 * symbols, else once per name set, as upstream's mpif-h bindings are.
 * The statuses are written when the enqueued waits execute, after this
 * call has returned: the queue gets the caller's Fortran array itself (see
 * enqueue_wait_f.c).  The request handles are copied by the queue.
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
#pragma weak PMPI_ENQUEUE_WAITALL = ompi_enqueue_waitall_f
#pragma weak pmpi_enqueue_waitall = ompi_enqueue_waitall_f
#pragma weak pmpi_enqueue_waitall_ = ompi_enqueue_waitall_f
#pragma weak pmpi_enqueue_waitall__ = ompi_enqueue_waitall_f
#else
OMPI_GENERATE_F77_BINDINGS(PMPI_ENQUEUE_WAITALL, pmpi_enqueue_waitall, pmpi_enqueue_waitall_, pmpi_enqueue_waitall__,
                           pompi_enqueue_waitall_f, (MPI_Fint *queue, MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *array_of_statuses, MPI_Fint *ierr), (queue, count, array_of_requests, array_of_statuses, ierr))
#endif
#endif

#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPI_ENQUEUE_WAITALL = ompi_enqueue_waitall_f
#pragma weak mpi_enqueue_waitall = ompi_enqueue_waitall_f
#pragma weak mpi_enqueue_waitall_ = ompi_enqueue_waitall_f
#pragma weak mpi_enqueue_waitall__ = ompi_enqueue_waitall_f
#else
#if !OMPI_BUILD_MPI_PROFILING
OMPI_GENERATE_F77_BINDINGS(MPI_ENQUEUE_WAITALL, mpi_enqueue_waitall, mpi_enqueue_waitall_, mpi_enqueue_waitall__,
                           ompi_enqueue_waitall_f, (MPI_Fint *queue, MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *array_of_statuses, MPI_Fint *ierr), (queue, count, array_of_requests, array_of_statuses, ierr))
#else
#define ompi_enqueue_waitall_f pompi_enqueue_waitall_f
#endif
#endif

static const char FUNC_NAME[] = "MPI_ENQUEUE_WAITALL";

void ompi_enqueue_waitall_f(MPI_Fint *queue, MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *array_of_statuses, MPI_Fint *ierr)
{
    int c_ierr, n = OMPI_FINT_2_INT(*count);
    MPI_Queue c_queue = PMPI_Queue_f2c(*queue);
    MPI_Request *c_req = NULL;
    MPI_Status *c_statuses = MPI_STATUSES_IGNORE;

    if (!OMPI_IS_FORTRAN_STATUSES_IGNORE(array_of_statuses)) {
#if OMPI_FORTRAN_STATUS_NEED_CONVERSION_1
        c_ierr = OMPI_ERRHANDLER_NOHANDLE_INVOKE(MPI_ERR_UNSUPPORTED_OPERATION,
                                                 "MPI_ENQUEUE_WAITALL: a Fortran INTEGER is not "
                                                 "a C int here: pass MPI_STATUSES_IGNORE");
        if (NULL != ierr) {
            *ierr = OMPI_INT_2_FINT(c_ierr);
        }
        return;
#else
        c_statuses = (MPI_Status *) array_of_statuses;
#endif
    }
    if (0 < n) {
        c_req = (MPI_Request *) malloc(n * sizeof(MPI_Request));
        if (NULL == c_req) {
            c_ierr = OMPI_ERRHANDLER_NOHANDLE_INVOKE(MPI_ERR_NO_MEM, FUNC_NAME);
            if (NULL != ierr) {
                *ierr = OMPI_INT_2_FINT(c_ierr);
            }
            return;
        }
        for (int i = 0; i < n; ++i) {
            c_req[i] = PMPI_Request_f2c(array_of_requests[i]);
        }
    }
    c_ierr = PMPI_Enqueue_waitall(&c_queue, n, c_req, c_statuses);
    if (NULL != ierr) {
        *ierr = OMPI_INT_2_FINT(c_ierr);
    }
    free(c_req);
}
