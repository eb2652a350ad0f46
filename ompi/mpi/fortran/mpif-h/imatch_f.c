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
 * mpif.h binding of MPI_Imatch, also called by the "use mpi" and
 * "use mpi_f08" bindings.  Built once in profile/ as the strong
 * ompi_imatch_f with weak MPI_ and PMPI_ names where the compiler has weak
 * symbols, else once per name set, as upstream's mpif-h bindings are.
 * Matching replaces TOMATCH inside the call: the new handle goes back to
 * the caller with the request that completes the match.
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
#pragma weak PMPI_IMATCH = ompi_imatch_f
#pragma weak pmpi_imatch = ompi_imatch_f
#pragma weak pmpi_imatch_ = ompi_imatch_f
#pragma weak pmpi_imatch__ = ompi_imatch_f
#else
OMPI_GENERATE_F77_BINDINGS(PMPI_IMATCH, pmpi_imatch, pmpi_imatch_, pmpi_imatch__,
                           pompi_imatch_f, (MPI_Fint *tomatch, MPI_Fint *matchrequest, MPI_Fint *ierr), (tomatch, matchrequest, ierr))
#endif
#endif

#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPI_IMATCH = ompi_imatch_f
#pragma weak mpi_imatch = ompi_imatch_f
#pragma weak mpi_imatch_ = ompi_imatch_f
#pragma weak mpi_imatch__ = ompi_imatch_f
#else
#if !OMPI_BUILD_MPI_PROFILING
OMPI_GENERATE_F77_BINDINGS(MPI_IMATCH, mpi_imatch, mpi_imatch_, mpi_imatch__,
                           ompi_imatch_f, (MPI_Fint *tomatch, MPI_Fint *matchrequest, MPI_Fint *ierr), (tomatch, matchrequest, ierr))
#else
#define ompi_imatch_f pompi_imatch_f
#endif
#endif

void ompi_imatch_f(MPI_Fint *tomatch, MPI_Fint *matchrequest, MPI_Fint *ierr)
{
    int c_ierr;
    MPI_Request c_req = PMPI_Request_f2c(*tomatch);
    MPI_Request c_match = MPI_REQUEST_NULL;

    c_ierr = PMPI_Imatch(&c_req, &c_match);
    if (NULL != ierr) {
        *ierr = OMPI_INT_2_FINT(c_ierr);
    }
    if (MPI_SUCCESS == c_ierr) {
        *tomatch = PMPI_Request_c2f(c_req);
        *matchrequest = PMPI_Request_c2f(c_match);
    }
}
