/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The locations an execution runs at (graphs_location.c), and the table
 * through which a request reaches an offloaded execution, so that the
 * request code names no device (MPIX_OFFLOAD_CUDA fills it: graphs_cuda.c).
 */

#ifndef OMPI_MPIEXT_GRAPHS_LOCATION_H
#define OMPI_MPIEXT_GRAPHS_LOCATION_H

#include "ompi_config.h"

#include "mpi.h"
#include "ompi/mpiext/graphs/c/mpiext_graphs_c.h"

BEGIN_C_DECLS

/* internals of libmpi, not exported (see graphs.h) */
#pragma GCC visibility push(hidden)

struct graphs_request_t;
typedef struct graphs_offload_t graphs_offload_t;

/** An offloaded execution's operations, called by its request. */
typedef struct graphs_offload_ops_t {
    /** Order one execution in the device's stream; outer completes with it.
     * Returns MPI_SUCCESS or an MPI error class.  The program's thread. */
    int (*start)(graphs_offload_t *off, struct graphs_request_t *outer);
    /** Release it (it may fence an internal queue): never from a progress
     * callback (graphs_location_free_later defers it). */
    void (*free)(graphs_offload_t *off);
} graphs_offload_ops_t;

/** The head of an offloaded execution's own structure. */
struct graphs_offload_t {
    const graphs_offload_ops_t *ops;
};

/**
 * Check a location and take what it needs (the progress thread for
 * PTHREAD).  On error *msg says why (static string).
 *
 * @return MPI_SUCCESS or an MPI error class
 */
int graphs_location_acquire(int loc_type, void *loc_info, const char **msg);
void graphs_location_release(int loc_type);
/** graphs_location_release from a thread that may be the progress thread:
 * done by the next call from the program. */
void graphs_location_release_deferred(int loc_type);
/** Free an offloaded execution from a progress callback: done by the next
 * call from the program. */
void graphs_location_free_later(graphs_offload_t *off);
/** Do what was deferred (the next call from the program, finalization). */
void graphs_location_flush(void);

#pragma GCC visibility pop

END_C_DECLS

#endif /* OMPI_MPIEXT_GRAPHS_LOCATION_H */
