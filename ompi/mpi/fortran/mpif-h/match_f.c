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
 * mpif.h binding of MPI_Match, also called by the "use mpi" and
 * "use mpi_f08" bindings.  Built once in profile/ as the strong
 * ompi_match_f with weak MPI_ and PMPI_ names where the compiler has weak
 * symbols, else once per name set, as upstream's mpif-h bindings are.
 * Matching replaces the request: the new handle goes back to the caller.
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
#pragma weak PMPI_MATCH = ompi_match_f
#pragma weak pmpi_match = ompi_match_f
#pragma weak pmpi_match_ = ompi_match_f
#pragma weak pmpi_match__ = ompi_match_f
#else
OMPI_GENERATE_F77_BINDINGS(PMPI_MATCH, pmpi_match, pmpi_match_, pmpi_match__,
                           pompi_match_f, (MPI_Fint *request, MPI_Fint *ierr), (request, ierr))
#endif
#endif

#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPI_MATCH = ompi_match_f
#pragma weak mpi_match = ompi_match_f
#pragma weak mpi_match_ = ompi_match_f
#pragma weak mpi_match__ = ompi_match_f
#else
#if !OMPI_BUILD_MPI_PROFILING
OMPI_GENERATE_F77_BINDINGS(MPI_MATCH, mpi_match, mpi_match_, mpi_match__,
                           ompi_match_f, (MPI_Fint *request, MPI_Fint *ierr), (request, ierr))
#else
#define ompi_match_f pompi_match_f
#endif
#endif

void ompi_match_f(MPI_Fint *request, MPI_Fint *ierr)
{
    int c_ierr;
    MPI_Request c_req = PMPI_Request_f2c(*request);

    c_ierr = PMPI_Match(&c_req);
    if (NULL != ierr) {
        *ierr = OMPI_INT_2_FINT(c_ierr);
    }
    if (MPI_SUCCESS == c_ierr) {
        *request = PMPI_Request_c2f(c_req);
    }
}
