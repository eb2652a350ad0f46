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

#include "opal/mca/base/base.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/match/match.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_request.h"

/*
 * The following file was created by configure.  It contains extern
 * statements and the definition of an array of pointers to each
 * component's public mca_base_component_t struct.
 */
#include "ompi/mca/match/base/static-components.h"

mca_match_base_module_t *mca_match_base_selected_module = NULL;
static const mca_match_base_component_t *mca_match_base_selected_component = NULL;

/* Keep the component with the highest priority that returns a module. */
static int mca_match_base_select(void)
{
    mca_base_component_list_item_t *cli;
    int best_priority = -1;

    OPAL_LIST_FOREACH (cli, &ompi_match_base_framework.framework_components,
                       mca_base_component_list_item_t) {
        const mca_match_base_component_t *component
            = (const mca_match_base_component_t *) cli->cli_component;
        mca_match_base_module_t *module;
        int priority = 0;

        if (NULL == component->matchm_init) {
            continue;
        }
        module = component->matchm_init(&priority);
        if (NULL == module) {
            opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                                "match:base:select: component %s declined",
                                component->matchm_version.mca_component_name);
            continue;
        }
        opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                            "match:base:select: component %s available, priority %d",
                            component->matchm_version.mca_component_name, priority);
        if (priority > best_priority) {
            if (NULL != mca_match_base_selected_component
                && NULL != mca_match_base_selected_component->matchm_finalize) {
                (void) mca_match_base_selected_component->matchm_finalize();
            }
            best_priority = priority;
            mca_match_base_selected_module = module;
            mca_match_base_selected_component = component;
            module->match_component = component;
        } else if (NULL != component->matchm_finalize) {
            (void) component->matchm_finalize();
        }
    }

    if (NULL != mca_match_base_selected_component) {
        opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                            "match:base:select: selected %s",
                            mca_match_base_selected_component->matchm_version.mca_component_name);
    }
    return OMPI_SUCCESS;
}

static int mca_match_base_open(mca_base_open_flag_t flags)
{
    int ret;

    ret = mca_base_framework_components_open(&ompi_match_base_framework, flags);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    return mca_match_base_select();
}

int mca_match_base_pml_selected(void)
{
    if (NULL == mca_match_base_selected_module) {
        return OMPI_SUCCESS;
    }
    return mca_match_base_describe_init();
}

static int mca_match_base_close(void)
{
    if (NULL != mca_match_base_selected_component
        && NULL != mca_match_base_selected_component->matchm_finalize) {
        (void) mca_match_base_selected_component->matchm_finalize();
    }
    mca_match_base_selected_component = NULL;
    mca_match_base_selected_module = NULL;
    mca_match_base_describe_fini();
    return mca_base_framework_components_close(&ompi_match_base_framework, NULL);
}

MCA_BASE_FRAMEWORK_DECLARE(ompi, match, "OMPI matching of persistent requests (MPI_Match)",
                           NULL, mca_match_base_open, mca_match_base_close,
                           mca_match_base_static_components, 0);
