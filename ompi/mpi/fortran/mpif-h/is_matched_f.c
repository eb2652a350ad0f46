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
 * mpif.h binding of MPI_Is_matched, also called by the "use mpi" and
 * "use mpi_f08" bindings.  Built once in profile/ as the strong
 * ompi_is_matched_f with weak MPI_ and PMPI_ names where the compiler has weak
 * symbols, else once per name set, as upstream's mpif-h bindings are.
 * FLAG is a Fortran LOGICAL.
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
#pragma weak PMPI_IS_MATCHED = ompi_is_matched_f
#pragma weak pmpi_is_matched = ompi_is_matched_f
#pragma weak pmpi_is_matched_ = ompi_is_matched_f
#pragma weak pmpi_is_matched__ = ompi_is_matched_f
#else
OMPI_GENERATE_F77_BINDINGS(PMPI_IS_MATCHED, pmpi_is_matched, pmpi_is_matched_, pmpi_is_matched__,
                           pompi_is_matched_f, (MPI_Fint *request, ompi_fortran_logical_t *flag, MPI_Fint *ierr), (request, flag, ierr))
#endif
#endif

#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPI_IS_MATCHED = ompi_is_matched_f
#pragma weak mpi_is_matched = ompi_is_matched_f
#pragma weak mpi_is_matched_ = ompi_is_matched_f
#pragma weak mpi_is_matched__ = ompi_is_matched_f
#else
#if !OMPI_BUILD_MPI_PROFILING
OMPI_GENERATE_F77_BINDINGS(MPI_IS_MATCHED, mpi_is_matched, mpi_is_matched_, mpi_is_matched__,
                           ompi_is_matched_f, (MPI_Fint *request, ompi_fortran_logical_t *flag, MPI_Fint *ierr), (request, flag, ierr))
#else
#define ompi_is_matched_f pompi_is_matched_f
#endif
#endif

void ompi_is_matched_f(MPI_Fint *request, ompi_fortran_logical_t *flag, MPI_Fint *ierr)
{
    int c_ierr, c_flag = 0;
    MPI_Request c_req = PMPI_Request_f2c(*request);

    c_ierr = PMPI_Is_matched(c_req, &c_flag);
    if (NULL != ierr) {
        *ierr = OMPI_INT_2_FINT(c_ierr);
    }
    if (MPI_SUCCESS == c_ierr) {
        *flag = OMPI_INT_2_LOGICAL(c_flag);
    }
}
