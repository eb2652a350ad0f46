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
 * mpif.h binding of MPI_Enqueue_startall, also called by the "use mpi" and
 * "use mpi_f08" bindings.  Built once in profile/ as the strong
 * ompi_enqueue_startall_f with weak MPI_ and PMPI_ names where the compiler has weak
 * symbols, else once per name set, as upstream's mpif-h bindings are.
 * The queue copies the request handles, so the C array is freed on return.
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
#pragma weak PMPI_ENQUEUE_STARTALL = ompi_enqueue_startall_f
#pragma weak pmpi_enqueue_startall = ompi_enqueue_startall_f
#pragma weak pmpi_enqueue_startall_ = ompi_enqueue_startall_f
#pragma weak pmpi_enqueue_startall__ = ompi_enqueue_startall_f
#else
OMPI_GENERATE_F77_BINDINGS(PMPI_ENQUEUE_STARTALL, pmpi_enqueue_startall, pmpi_enqueue_startall_, pmpi_enqueue_startall__,
                           pompi_enqueue_startall_f, (MPI_Fint *queue, MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *ierr), (queue, count, array_of_requests, ierr))
#endif
#endif

#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPI_ENQUEUE_STARTALL = ompi_enqueue_startall_f
#pragma weak mpi_enqueue_startall = ompi_enqueue_startall_f
#pragma weak mpi_enqueue_startall_ = ompi_enqueue_startall_f
#pragma weak mpi_enqueue_startall__ = ompi_enqueue_startall_f
#else
#if !OMPI_BUILD_MPI_PROFILING
OMPI_GENERATE_F77_BINDINGS(MPI_ENQUEUE_STARTALL, mpi_enqueue_startall, mpi_enqueue_startall_, mpi_enqueue_startall__,
                           ompi_enqueue_startall_f, (MPI_Fint *queue, MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *ierr), (queue, count, array_of_requests, ierr))
#else
#define ompi_enqueue_startall_f pompi_enqueue_startall_f
#endif
#endif

static const char FUNC_NAME[] = "MPI_ENQUEUE_STARTALL";

void ompi_enqueue_startall_f(MPI_Fint *queue, MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *ierr)
{
    int c_ierr, n = OMPI_FINT_2_INT(*count);
    MPI_Queue c_queue = PMPI_Queue_f2c(*queue);
    MPI_Request *c_req = NULL;

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
    c_ierr = PMPI_Enqueue_startall(&c_queue, n, c_req);
    if (NULL != ierr) {
        *ierr = OMPI_INT_2_FINT(c_ierr);
    }
    free(c_req);
}
