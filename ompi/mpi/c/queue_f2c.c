/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

#include "ompi_config.h"

#include "ompi/mpi/c/bindings.h"
#include "ompi/runtime/params.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/mpi/fortran/base/fint_2_int.h"
#include "ompi/mca/queue/base/queue_object.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPI_Queue_f2c = PMPI_Queue_f2c
#endif
#define MPI_Queue_f2c PMPI_Queue_f2c
#endif

static const char FUNC_NAME[] = "MPI_Queue_f2c";

MPI_Queue MPI_Queue_f2c(MPI_Fint queue)
{
    int o_index = OMPI_FINT_2_INT(queue);

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
    }

    /* Per MPI, an invalid Fortran handle gives an invalid C handle, with no
     * error handler invoked. */
    if (0 > o_index || o_index >= opal_pointer_array_get_size(&ompi_queue_f_to_c_table)) {
        return NULL;
    }
    return (MPI_Queue) opal_pointer_array_get_item(&ompi_queue_f_to_c_table, o_index);
}
