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
 * Prototypes of the mpif.h bindings of the queue chapter (ours; upstream's
 * are in prototypes_mpi.h).  The same names as upstream's PN2 declares for
 * each of its functions: the C function, the four mpif.h spellings and the
 * profiling twins.
 */

#ifndef OMPI_F77_PROTOTYPES_QUEUE_H
#define OMPI_F77_PROTOTYPES_QUEUE_H

#include "ompi_config.h"

BEGIN_C_DECLS

#define QUEUE_PN2(ret, mixed_name, lower_name, upper_name, args) \
    OMPI_DECLSPEC ret o##lower_name##_f args;                    \
    OMPI_DECLSPEC ret lower_name args;                           \
    OMPI_DECLSPEC ret lower_name##_ args;                        \
    OMPI_DECLSPEC ret lower_name##__ args;                       \
    OMPI_DECLSPEC ret upper_name args;                           \
    OMPI_DECLSPEC ret po##lower_name##_f args;                   \
    OMPI_DECLSPEC ret p##lower_name args;                        \
    OMPI_DECLSPEC ret p##lower_name##_ args;                     \
    OMPI_DECLSPEC ret p##lower_name##__ args;                    \
    OMPI_DECLSPEC ret P##upper_name args;

QUEUE_PN2(void, MPI_Queue_init, mpi_queue_init, MPI_QUEUE_INIT,
          (MPI_Fint *queue, MPI_Fint *type, char *external, MPI_Fint *ierr));
QUEUE_PN2(void, MPI_Queue_free, mpi_queue_free, MPI_QUEUE_FREE,
          (MPI_Fint *queue, MPI_Fint *ierr));
QUEUE_PN2(void, MPI_Queue_fence, mpi_queue_fence, MPI_QUEUE_FENCE,
          (MPI_Fint *queue, MPI_Fint *ierr));
QUEUE_PN2(void, MPI_Enqueue_start, mpi_enqueue_start, MPI_ENQUEUE_START,
          (MPI_Fint *queue, MPI_Fint *request, MPI_Fint *ierr));
QUEUE_PN2(void, MPI_Enqueue_startall, mpi_enqueue_startall, MPI_ENQUEUE_STARTALL,
          (MPI_Fint *queue, MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *ierr));
QUEUE_PN2(void, MPI_Enqueue_wait, mpi_enqueue_wait, MPI_ENQUEUE_WAIT,
          (MPI_Fint *queue, MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierr));
QUEUE_PN2(void, MPI_Enqueue_waitall, mpi_enqueue_waitall, MPI_ENQUEUE_WAITALL,
          (MPI_Fint *queue, MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *array_of_statuses, MPI_Fint *ierr));
QUEUE_PN2(void, MPI_Match, mpi_match, MPI_MATCH,
          (MPI_Fint *request, MPI_Fint *ierr));
QUEUE_PN2(void, MPI_Imatch, mpi_imatch, MPI_IMATCH,
          (MPI_Fint *tomatch, MPI_Fint *matchrequest, MPI_Fint *ierr));
QUEUE_PN2(void, MPI_Matchall, mpi_matchall, MPI_MATCHALL,
          (MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *ierr));
QUEUE_PN2(void, MPI_Imatchall, mpi_imatchall, MPI_IMATCHALL,
          (MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *request, MPI_Fint *ierr));
QUEUE_PN2(void, MPI_Is_matched, mpi_is_matched, MPI_IS_MATCHED,
          (MPI_Fint *request, ompi_fortran_logical_t *flag, MPI_Fint *ierr));

#undef QUEUE_PN2

END_C_DECLS

#endif /* OMPI_F77_PROTOTYPES_QUEUE_H */
