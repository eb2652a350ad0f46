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
 * Internals of the MPIX graphs and streams extension, for its bindings: one
 * header per object (graphs_token.h, graphs_graph.h, graphs_session.h,
 * graphs_request.h, graphs_stream.h), all run by the extension's dependency
 * executor (graphs_engine.h).  Every internal name is hidden: calls between
 * the extension's files go direct, and a program may use these names for its
 * own symbols.
 */

#ifndef OMPI_MPIEXT_GRAPHS_H
#define OMPI_MPIEXT_GRAPHS_H

#include "ompi_config.h"

#include "ompi/mpiext/graphs/c/graphs_execute.h"
#include "ompi/mpiext/graphs/c/graphs_graph.h"
#include "ompi/mpiext/graphs/c/graphs_location.h"
#include "ompi/mpiext/graphs/c/graphs_request.h"
#include "ompi/mpiext/graphs/c/graphs_session.h"
#include "ompi/mpiext/graphs/c/graphs_stream.h"
#include "ompi/mpiext/graphs/c/graphs_token.h"

BEGIN_C_DECLS

#pragma GCC visibility push(hidden)

/* local types, comparison ops (graphs_vars.c) */
int graphs_vars_init(void);
void graphs_vars_fini(void);

/* component */
int graphs_component_init(void);
int graphs_component_fini(void);

#pragma GCC visibility pop

END_C_DECLS

#endif /* OMPI_MPIEXT_GRAPHS_H */
