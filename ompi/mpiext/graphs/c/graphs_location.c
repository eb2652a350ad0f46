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
 * The locations an execution runs at: what each needs (the progress thread
 * for MPIX_OFFLOAD_PTHREAD), and the releases deferred from the progress
 * thread.
 */

#include "ompi_config.h"

#include "opal/mca/threads/mutex.h"
#include "ompi/constants.h"
#include "ompi/mpiext/graphs/c/graphs_location.h"
#include "ompi/runtime/ompi_async_progress.h"

/* holds of the progress thread that could not be released in the thread
 * that completed an execution (the progress thread itself cannot join
 * itself): released by the next call from the program, or at finalization */
static opal_atomic_int32_t graphs_deferred_releases = 0;

/* offloaded executions of requests released in a progress callback, where
 * their internal queue cannot be fenced: freed by the next call from the
 * program */
#define GRAPHS_OFFLOAD_DEFERRED 64
static graphs_offload_t *graphs_offload_deferred[GRAPHS_OFFLOAD_DEFERRED];
static int graphs_offload_ndeferred = 0;
static opal_mutex_t graphs_offload_deferred_lock = OPAL_MUTEX_STATIC_INIT;

void graphs_location_free_later(graphs_offload_t *off)
{
    OPAL_THREAD_LOCK(&graphs_offload_deferred_lock);
    if (graphs_offload_ndeferred < GRAPHS_OFFLOAD_DEFERRED) {
        graphs_offload_deferred[graphs_offload_ndeferred++] = off;
    }
    OPAL_THREAD_UNLOCK(&graphs_offload_deferred_lock);
}

static void graphs_offload_flush(void)
{
    graphs_offload_t *off;

    while (0 < graphs_offload_ndeferred) {
        off = NULL;
        OPAL_THREAD_LOCK(&graphs_offload_deferred_lock);
        if (0 < graphs_offload_ndeferred) {
            off = graphs_offload_deferred[--graphs_offload_ndeferred];
        }
        OPAL_THREAD_UNLOCK(&graphs_offload_deferred_lock);
        if (NULL != off) {
            off->ops->free(off);
        }
    }
}

void graphs_location_flush(void)
{
    graphs_offload_flush();
    while (0 < graphs_deferred_releases) {
        (void) OPAL_THREAD_ADD_FETCH32(&graphs_deferred_releases, -1);
        ompi_async_progress_release();
    }
}

int graphs_location_acquire(int loc_type, void *loc_info, const char **msg)
{
    if (MPIX_LOC_INPLACE == loc_type && 0 == graphs_offload_ndeferred
        && 0 == graphs_deferred_releases) {
        /* the commonest location, nothing deferred to release (an
         * MPIX_Iexecute per message comes here) */
        return MPI_SUCCESS;
    }
    graphs_location_flush();
    switch (loc_type) {
    case MPIX_LOC_INPLACE:
        return MPI_SUCCESS;
    case MPIX_OFFLOAD_PTHREAD:
        if (OMPI_SUCCESS != ompi_async_progress_request()) {
            *msg = "MPIX_OFFLOAD_PTHREAD needs a thread-safe library: initialize with "
                   "MPI_THREAD_MULTIPLE, or request strong progress (mpi_async_progress=1 or "
                   "the info key mpi_strong_progress)";
            return MPI_ERR_ARG;
        }
        return MPI_SUCCESS;
    case MPIX_OFFLOAD_CUDA:
        if (NULL == loc_info) {
            *msg = "MPIX_OFFLOAD_CUDA needs loc_info pointing to a cudaStream_t";
            return MPI_ERR_ARG;
        }
        /* the stream itself is checked where its queue is made, with the
         * refusals of an MPI_Queue on it (graphs_cuda.c) */
        return MPI_SUCCESS;
    case MPIX_OFFLOAD_HIP:
        *msg = "MPIX_OFFLOAD_HIP is not available in this build";
        return MPI_ERR_ARG;
    case MPIX_OFFLOAD_NITRO:
        *msg = "MPIX_OFFLOAD_NITRO is not available (no such device support)";
        return MPI_ERR_ARG;
    default:
        *msg = "unknown loc_type";
        return MPI_ERR_ARG;
    }
}

void graphs_location_release(int loc_type)
{
    if (MPIX_OFFLOAD_PTHREAD == loc_type) {
        ompi_async_progress_release();
    }
}

/* the last reference of a request that may be completed in the progress
 * thread: never join that thread from itself */
void graphs_location_release_deferred(int loc_type)
{
    if (MPIX_OFFLOAD_PTHREAD == loc_type) {
        (void) OPAL_THREAD_ADD_FETCH32(&graphs_deferred_releases, 1);
    }
}
