/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

#ifndef OMPI_MCA_MATCH_BASE_BASE_H
#define OMPI_MCA_MATCH_BASE_BASE_H

#include "ompi_config.h"

#include "opal/mca/base/mca_base_framework.h"
#include "ompi/mca/match/match.h"

BEGIN_C_DECLS

OMPI_DECLSPEC extern mca_base_framework_t ompi_match_base_framework;

/** Verbose stream of the framework (match_base_verbose). */
#define OMPI_MATCH_BASE_OUTPUT (ompi_match_base_framework.framework_output)

/** The selected module, NULL when no component could be selected. */
OMPI_DECLSPEC extern mca_match_base_module_t *mca_match_base_selected_module;

/**
 * The PML is selected (instance initialization): start recording the
 * arguments of persistent point-to-point requests.
 */
OMPI_DECLSPEC int mca_match_base_pml_selected(void);

END_C_DECLS

#endif /* OMPI_MCA_MATCH_BASE_BASE_H */
