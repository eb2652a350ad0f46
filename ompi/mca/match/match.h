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
 * Match framework: pairs a persistent request with its peer once
 * (MPI_Match and friends), so that later starts need no tag matching.
 *
 * The base owns what every component shares: the description of each
 * persistent point-to-point request (captured when it is created), the
 * matched-request class that replaces the program's handle, and the
 * nonblocking match request returned by MPI_Imatch / MPI_Imatchall.
 * A component pairs point-to-point requests with their peers and builds the
 * channel that later starts use.
 *
 * Single selection by priority at framework open: the component with the
 * highest priority whose init returns a module serves every match in the
 * process.  The pml component works over any PML and is the fallback.
 */

#ifndef OMPI_MCA_MATCH_MATCH_H
#define OMPI_MCA_MATCH_MATCH_H

#include "ompi_config.h"

#include "ompi/mca/mca.h"
#include "opal/mca/base/base.h"

BEGIN_C_DECLS

struct mca_match_base_module_t;
struct mca_match_request_t;

/**
 * Component initialization, called once at framework open.
 *
 * @param[out] priority  priority of the returned module
 * @return the module, or NULL when the component cannot work here
 */
typedef struct mca_match_base_module_t *(*mca_match_base_component_init_fn_t)(int *priority);

/** Release what init acquired (selected component only). */
typedef int (*mca_match_base_component_finalize_fn_t)(void);

typedef struct mca_match_base_component_1_0_0_t {
    mca_base_component_t matchm_version;
    mca_base_component_data_t matchm_data;
    mca_match_base_component_init_fn_t matchm_init;
    mca_match_base_component_finalize_fn_t matchm_finalize;
} mca_match_base_component_1_0_0_t;
typedef mca_match_base_component_1_0_0_t mca_match_base_component_t;

/**
 * Begin to match one point-to-point request.
 *
 * The base has validated the request and built its matched-request object
 * (request->mr_desc describes the program's original request).  The module
 * pairs it with the peer's request, following MPI matching rules on
 * (communicator, source, tag) in the order of these calls, sets up the
 * channel (request->mr_inner, the operation each start runs) and then calls
 * mca_match_request_matched(request, status).  It may do so before
 * returning.  Local: it must not block.
 *
 * @retval OMPI_SUCCESS  the match is under way (or done)
 * @retval other         nothing was started, nothing changed
 */
typedef int (*mca_match_base_module_match_p2p_fn_t)(struct mca_match_request_t *request);

/**
 * Match module.
 */
typedef struct mca_match_base_module_t {
    /** the component this module belongs to */
    const mca_match_base_component_t *match_component;
    mca_match_base_module_match_p2p_fn_t match_p2p;
} mca_match_base_module_t;

#define MCA_MATCH_BASE_VERSION_1_0_0 OMPI_MCA_BASE_VERSION_2_1_0("match", 1, 0, 0)

END_C_DECLS

#endif /* OMPI_MCA_MATCH_MATCH_H */
