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
 * mpif.h binding of MPI_Imatchall, also called by the "use mpi" and
 * "use mpi_f08" bindings.  Built once in profile/ as the strong
 * ompi_imatchall_f with weak MPI_ and PMPI_ names where the compiler has weak
 * symbols, else once per name set, as upstream's mpif-h bindings are.
 * Matching replaces the requests inside the call: the new handles go back
 * to the caller.
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
#pragma weak PMPI_IMATCHALL = ompi_imatchall_f
#pragma weak pmpi_imatchall = ompi_imatchall_f
#pragma weak pmpi_imatchall_ = ompi_imatchall_f
#pragma weak pmpi_imatchall__ = ompi_imatchall_f
#else
OMPI_GENERATE_F77_BINDINGS(PMPI_IMATCHALL, pmpi_imatchall, pmpi_imatchall_, pmpi_imatchall__,
                           pompi_imatchall_f, (MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *request, MPI_Fint *ierr), (count, array_of_requests, request, ierr))
#endif
#endif

#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPI_IMATCHALL = ompi_imatchall_f
#pragma weak mpi_imatchall = ompi_imatchall_f
#pragma weak mpi_imatchall_ = ompi_imatchall_f
#pragma weak mpi_imatchall__ = ompi_imatchall_f
#else
#if !OMPI_BUILD_MPI_PROFILING
OMPI_GENERATE_F77_BINDINGS(MPI_IMATCHALL, mpi_imatchall, mpi_imatchall_, mpi_imatchall__,
                           ompi_imatchall_f, (MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *request, MPI_Fint *ierr), (count, array_of_requests, request, ierr))
#else
#define ompi_imatchall_f pompi_imatchall_f
#endif
#endif

static const char FUNC_NAME[] = "MPI_IMATCHALL";

void ompi_imatchall_f(MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *request, MPI_Fint *ierr)
{
    int c_ierr, n = OMPI_FINT_2_INT(*count);
    MPI_Request *c_req = NULL;
    MPI_Request c_match = MPI_REQUEST_NULL;

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
    c_ierr = PMPI_Imatchall(n, c_req, &c_match);
    if (NULL != ierr) {
        *ierr = OMPI_INT_2_FINT(c_ierr);
    }
    if (MPI_SUCCESS == c_ierr) {
        for (int i = 0; i < n; ++i) {
            array_of_requests[i] = PMPI_Request_c2f(c_req[i]);
        }
        *request = PMPI_Request_c2f(c_match);
    }
    free(c_req);
}
