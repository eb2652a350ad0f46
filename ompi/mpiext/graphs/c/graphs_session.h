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
 * The extension's record of a session (graphs_session.c): where the errors
 * of a session's graphs, streams and requests are reported.
 */

#ifndef OMPI_MPIEXT_GRAPHS_SESSION_H
#define OMPI_MPIEXT_GRAPHS_SESSION_H

#include "ompi_config.h"

#include "mpi.h"
#include "opal/class/opal_object.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/request/request.h"

BEGIN_C_DECLS

/* internals of libmpi, not exported (see graphs.h) */
#pragma GCC visibility push(hidden)

/* sessions (graphs_session.c) */

/** The extension's record of a session: a stand-in communicator whose
 * error handler passes errors on to the session's (see graphs_session.c). */
typedef struct graphs_session_t {
    ompi_communicator_t comm;      /**< first: the handler receives its address */
    struct ompi_instance_t *instance;
    struct graphs_session_t *next;
} graphs_session_t;

/**
 * The record of a session, made at its first use; *out NULL for
 * MPI_SESSION_NULL (the World model).
 *
 * @return MPI_SUCCESS or MPI_ERR_NO_MEM
 */
int graphs_session_get(struct ompi_instance_t *instance, graphs_session_t **out);

/** Release every record (finalization). */
void graphs_session_flush(void);

/** The session of a record, NULL for the World model. */
static inline struct ompi_instance_t *graphs_session_instance(const graphs_session_t *s)
{
    return NULL == s ? NULL : s->instance;
}

/** The communicator whose handler reports a request's errors at completion
 * for objects of a session: the record's stand-in, MPI_COMM_SELF for the
 * World model. */
static inline ompi_communicator_t *graphs_session_comm(graphs_session_t *s)
{
    return NULL == s ? &ompi_mpi_comm_self.comm : &s->comm;
}

#pragma GCC visibility pop

END_C_DECLS

#endif /* OMPI_MPIEXT_GRAPHS_SESSION_H */
