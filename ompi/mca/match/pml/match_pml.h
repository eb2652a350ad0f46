/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

#ifndef MCA_MATCH_PML_H
#define MCA_MATCH_PML_H

#include "ompi_config.h"

#include "ompi/mca/match/match.h"

BEGIN_C_DECLS

typedef struct mca_match_pml_component_t {
    mca_match_base_component_t super;
    int priority;
} mca_match_pml_component_t;

OMPI_DECLSPEC extern mca_match_pml_component_t mca_match_pml_component;
extern mca_match_base_module_t mca_match_pml_module;

/** Set up and tear down the handshake state of the component. */
int mca_match_pml_channel_init(void);
int mca_match_pml_channel_fini(void);

END_C_DECLS

#endif /* MCA_MATCH_PML_H */
