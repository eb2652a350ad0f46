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
 * The sm component: channels for pairs whose processes share a node.  It
 * only builds channels; pairing stays with the pml component.
 */

#include "ompi_config.h"

#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/sm/match_sm.h"

opal_mutex_t mca_match_sm_lock = OPAL_MUTEX_STATIC_INIT;

static int match_sm_register(void)
{
    mca_base_component_t *v = &mca_match_sm_component.super.matchm_version;
    mca_match_sm_component_t *c = &mca_match_sm_component;

    c->priority = 40;
    (void) mca_base_component_var_register(v, "priority",
                                           "Priority of the sm match component (channels "
                                           "between processes of one node; above pml)",
                                           MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_3,
                                           MCA_BASE_VAR_SCOPE_READONLY, &c->priority);
    c->chunk_size = 8192;
    (void) mca_base_component_var_register(v, "chunk_size",
                                           "Bytes of one entry of a channel's ring (messages "
                                           "larger than that are pipelined through the ring)",
                                           MCA_BASE_VAR_TYPE_UNSIGNED_INT, NULL, 0, 0,
                                           OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
                                           &c->chunk_size);
    c->ring_chunks = 4;
    (void) mca_base_component_var_register(v, "ring_chunks",
                                           "Entries of a channel's ring (chunks in flight of a "
                                           "pipelined message)",
                                           MCA_BASE_VAR_TYPE_UNSIGNED_INT, NULL, 0, 0,
                                           OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
                                           &c->ring_chunks);
    c->max_channels = 1024;
    (void) mca_base_component_var_register(v, "max_channels",
                                           "Matched sends of this process that may use a "
                                           "shared-memory channel at a time (the segment's "
                                           "size is fixed by it; later pairs fall back)",
                                           MCA_BASE_VAR_TYPE_UNSIGNED_INT, NULL, 0, 0,
                                           OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
                                           &c->max_channels);
    c->single_copy = true;
    (void) mca_base_component_var_register(v, "single_copy",
                                           "Let the receiver read large contiguous messages "
                                           "from the sender's buffer with process_vm_readv "
                                           "where the kernel allows it (checked per peer)",
                                           MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_5,
                                           MCA_BASE_VAR_SCOPE_READONLY, &c->single_copy);
    c->single_copy_threshold = 16384;
    (void) mca_base_component_var_register(v, "single_copy_threshold",
                                           "Bytes from which a contiguous message is read by "
                                           "single copy",
                                           MCA_BASE_VAR_TYPE_SIZE_T, NULL, 0, 0, OPAL_INFO_LVL_5,
                                           MCA_BASE_VAR_SCOPE_READONLY,
                                           &c->single_copy_threshold);
    return OMPI_SUCCESS;
}

static mca_match_base_module_t *match_sm_init(int *priority)
{
    mca_match_sm_component_t *c = &mca_match_sm_component;

    if (0 == c->chunk_size || 0 == c->ring_chunks || 0 == c->max_channels) {
        opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                            "match:sm: chunk_size, ring_chunks and max_channels must be > 0");
        return NULL;
    }
    /* lines of the ring stay aligned */
    c->chunk_size = (c->chunk_size + MCA_MATCH_SM_LINE - 1) & ~(MCA_MATCH_SM_LINE - 1u);
    *priority = c->priority;
    return &mca_match_sm_module;
}

static int match_sm_finalize(void)
{
    mca_match_base_chan_fini(&mca_match_sm_chan);
    mca_match_sm_segment_fini();
    return OMPI_SUCCESS;
}

mca_match_sm_component_t mca_match_sm_component = {
    .super = {
        .matchm_version = {
            MCA_MATCH_BASE_VERSION_1_0_0,
            .mca_component_name = "sm",
            MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                                  OMPI_RELEASE_VERSION),
            .mca_register_component_params = match_sm_register,
        },
        .matchm_data = {
            MCA_BASE_METADATA_PARAM_NONE
        },
        .matchm_init = match_sm_init,
        .matchm_finalize = match_sm_finalize,
    },
};
