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
mca_match_base_module_t *mca_match_base_channels[MCA_MATCH_BASE_MAX_CHANNELS];
int mca_match_base_channel_count = 0;
bool mca_match_base_fallback = true;

/* every module whose init succeeded, by decreasing priority */
static struct {
    const mca_match_base_component_t *component;
    mca_match_base_module_t *module;
    int priority;
} match_base_open_modules[MCA_MATCH_BASE_MAX_CHANNELS];
static int match_base_open_count = 0;

static int mca_match_base_register(mca_base_register_flag_t flags)
{
    (void) flags;
    mca_match_base_fallback = true;
    (void) mca_base_framework_var_register(&ompi_match_base_framework, "fallback",
                                           "When a pair's preferred channel applies to it but "
                                           "cannot be set up (no shared-memory slot left, a "
                                           "segment that cannot be attached), fall back to the "
                                           "next channel (true) or fail the match with "
                                           "MPI_ERR_OTHER (false: for testing a channel)",
                                           MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_5,
                                           MCA_BASE_VAR_SCOPE_READONLY, &mca_match_base_fallback);
    return OMPI_SUCCESS;
}

/* Keep every module, by priority: the first with match_p2p pairs, those
 * with a channel slot serve the pairs they apply to. */
static int mca_match_base_select(void)
{
    mca_base_component_list_item_t *cli;

    OPAL_LIST_FOREACH (cli, &ompi_match_base_framework.framework_components,
                       mca_base_component_list_item_t) {
        const mca_match_base_component_t *component
            = (const mca_match_base_component_t *) cli->cli_component;
        mca_match_base_module_t *module;
        int priority = 0, at;

        if (NULL == component->matchm_init
            || MCA_MATCH_BASE_MAX_CHANNELS == match_base_open_count) {
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
        module->match_component = component;
        for (at = match_base_open_count; at > 0 && match_base_open_modules[at - 1].priority
                                                     < priority; --at) {
            match_base_open_modules[at] = match_base_open_modules[at - 1];
        }
        match_base_open_modules[at].component = component;
        match_base_open_modules[at].module = module;
        match_base_open_modules[at].priority = priority;
        match_base_open_count++;
    }

    for (int i = 0; i < match_base_open_count; ++i) {
        mca_match_base_module_t *module = match_base_open_modules[i].module;
        const char *name = match_base_open_modules[i].component->matchm_version.mca_component_name;

        if (NULL != module->match_p2p && NULL == mca_match_base_selected_module) {
            mca_match_base_selected_module = module;
            opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                                "match:base:select: %s pairs requests", name);
        }
        if (NULL != module->match_channel_offer) {
            mca_match_base_channels[mca_match_base_channel_count++] = module;
            opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                                "match:base:select: channel %s, priority %d", name,
                                match_base_open_modules[i].priority);
        }
    }
    if (NULL == mca_match_base_selected_module) {
        opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                            "match:base:select: no component pairs requests: MPI_Match "
                            "is not available");
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
    ret = mca_match_base_ft_init();
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
    for (int i = 0; i < match_base_open_count; ++i) {
        if (NULL != match_base_open_modules[i].component->matchm_finalize) {
            (void) match_base_open_modules[i].component->matchm_finalize();
        }
    }
    match_base_open_count = 0;
    mca_match_base_channel_count = 0;
    mca_match_base_selected_module = NULL;
    mca_match_base_describe_fini();
    return mca_base_framework_components_close(&ompi_match_base_framework, NULL);
}

MCA_BASE_FRAMEWORK_DECLARE(ompi, match, "OMPI matching of persistent requests (MPI_Match)",
                           mca_match_base_register, mca_match_base_open, mca_match_base_close,
                           mca_match_base_static_components, 0);
