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
 * Declarations of the draft MPI chapter "Queued Communication" (queue
 * objects, matching, enqueued starts and waits).  Included by mpi.h when
 * Open MPI is configured --with-queue; never include it directly.
 *
 * Functions appear here as they are implemented.
 */

#ifndef OMPI_MPI_QUEUE_H
#define OMPI_MPI_QUEUE_H

#ifndef OMPI_MPI_H
#error "mpi_queue.h is included by mpi.h; include mpi.h instead"
#endif

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/** Tells programs that this MPI implements the queue chapter.  mpi.h
 * also names the version of Open MPI with Queued Communication:
 * OMPI_QUEUE_VERSION_MAJOR, _MINOR, _RELEASE and the string
 * OMPI_QUEUE_VERSION (from configure). */
#define OMPI_HAVE_MPI_QUEUE 1

/*
 * MPI_REQUEST_EMPTY: a request that completed inside the call that returned
 * it (docs/man/MPI_REQUEST_EMPTY.3.md).  OMPI_HAVE_MPI_REQUEST_EMPTY lets
 * portable code test for it.
 */
OMPI_DECLSPEC extern struct ompi_predefined_request_t ompi_mpi_request_empty;
#define MPI_REQUEST_EMPTY OMPI_PREDEFINED_GLOBAL(MPI_Request, ompi_mpi_request_empty)
#define OMPI_HAVE_MPI_REQUEST_EMPTY 1

/*
 * Queue handle
 */
typedef struct ompi_queue_t *MPI_Queue;

OMPI_DECLSPEC extern struct ompi_predefined_queue_t ompi_mpi_queue_null;
#define MPI_QUEUE_NULL OMPI_PREDEFINED_GLOBAL(MPI_Queue, ompi_mpi_queue_null)

/*
 * Queue types.  MPI_QUEUE_TYPE_DEFAULT is the chapter's; the others are
 * Open MPI's implementation-defined types (see MPI_Queue_init(3)).
 */
#define MPI_QUEUE_TYPE_DEFAULT       0
/** external points to a cudaStream_t (same type as CUstream) */
#define MPIX_QUEUE_TYPE_CUDA_STREAM  1
/** external points to a hipStream_t */
#define MPIX_QUEUE_TYPE_HIP_STREAM   2

/*
 * Queue objects
 */
OMPI_DECLSPEC int MPI_Queue_init(MPI_Queue *queue, int type, void *external);
OMPI_DECLSPEC int MPI_Queue_free(MPI_Queue *queue);
OMPI_DECLSPEC MPI_Fint MPI_Queue_c2f(MPI_Queue queue);
OMPI_DECLSPEC MPI_Queue MPI_Queue_f2c(MPI_Fint queue);

OMPI_DECLSPEC int PMPI_Queue_init(MPI_Queue *queue, int type, void *external);
OMPI_DECLSPEC int PMPI_Queue_free(MPI_Queue *queue);
OMPI_DECLSPEC MPI_Fint PMPI_Queue_c2f(MPI_Queue queue);
OMPI_DECLSPEC MPI_Queue PMPI_Queue_f2c(MPI_Fint queue);

/*
 * Enqueued starts and waits (section 13.3)
 */
OMPI_DECLSPEC int MPI_Enqueue_start(MPI_Queue *queue, MPI_Request *request);
OMPI_DECLSPEC int MPI_Enqueue_startall(MPI_Queue *queue, int count,
                                       MPI_Request array_of_requests[]);
OMPI_DECLSPEC int MPI_Enqueue_wait(MPI_Queue *queue, MPI_Request *request, MPI_Status *status);
OMPI_DECLSPEC int MPI_Enqueue_waitall(MPI_Queue *queue, int count,
                                      MPI_Request array_of_requests[],
                                      MPI_Status array_of_statuses[]);
OMPI_DECLSPEC int MPI_Queue_fence(MPI_Queue *queue);

OMPI_DECLSPEC int PMPI_Enqueue_start(MPI_Queue *queue, MPI_Request *request);
OMPI_DECLSPEC int PMPI_Enqueue_startall(MPI_Queue *queue, int count,
                                        MPI_Request array_of_requests[]);
OMPI_DECLSPEC int PMPI_Enqueue_wait(MPI_Queue *queue, MPI_Request *request, MPI_Status *status);
OMPI_DECLSPEC int PMPI_Enqueue_waitall(MPI_Queue *queue, int count,
                                       MPI_Request array_of_requests[],
                                       MPI_Status array_of_statuses[]);
OMPI_DECLSPEC int PMPI_Queue_fence(MPI_Queue *queue);

/*
 * Matching (section 13.2).  The chapter's bindings spell two of them
 * MPI_IMatch and MPI_IMatchall: both spellings work.
 */
OMPI_DECLSPEC int MPI_Match(MPI_Request *request);
OMPI_DECLSPEC int MPI_Imatch(MPI_Request *tomatch, MPI_Request *matchrequest);
OMPI_DECLSPEC int MPI_Matchall(int count, MPI_Request array_of_requests[]);
OMPI_DECLSPEC int MPI_Imatchall(int count, MPI_Request array_of_requests[],
                                MPI_Request *request);
OMPI_DECLSPEC int MPI_Is_matched(MPI_Request request, int *flag);

OMPI_DECLSPEC int PMPI_Match(MPI_Request *request);
OMPI_DECLSPEC int PMPI_Imatch(MPI_Request *tomatch, MPI_Request *matchrequest);
OMPI_DECLSPEC int PMPI_Matchall(int count, MPI_Request array_of_requests[]);
OMPI_DECLSPEC int PMPI_Imatchall(int count, MPI_Request array_of_requests[],
                                 MPI_Request *request);
OMPI_DECLSPEC int PMPI_Is_matched(MPI_Request request, int *flag);

#define MPI_IMatch MPI_Imatch
#define MPI_IMatchall MPI_Imatchall
#define PMPI_IMatch PMPI_Imatch
#define PMPI_IMatchall PMPI_Imatchall

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* OMPI_MPI_QUEUE_H */
