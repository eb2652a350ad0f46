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
#include "ompi/mca/match/base/match_base_param.h"
#include "ompi/mca/match/sm/match_sm.h"

opal_mutex_t mca_match_sm_lock = OPAL_MUTEX_STATIC_INIT;

static int match_sm_register(void)
{
    mca_match_sm_component_t *c = &mca_match_sm_component;
    const mca_match_base_param_t params[] = {
        MCA_MATCH_BASE_PARAM_UINT("chunk_size", &c->chunk_size, 8192,
         "Bytes of one entry of a channel's ring (messages larger than that are pipelined "
         "through the ring)"),
        MCA_MATCH_BASE_PARAM_UINT("ring_chunks", &c->ring_chunks, 4,
         "Entries of a channel's ring (chunks in flight of a pipelined message)"),
        MCA_MATCH_BASE_PARAM_BOOL("single_copy", &c->single_copy, true,
         "Let the receiver read large contiguous messages from the sender's buffer with "
         "process_vm_readv where the kernel allows it (checked per peer)"),
        {"single_copy_threshold", MCA_BASE_VAR_TYPE_SIZE_T, OPAL_INFO_LVL_5,
         &c->single_copy_threshold, 16384, NULL,
         "Bytes from which a contiguous message is read by single copy"},
    };

    /* the segment holds max_channels slots; sm serves only pairs of one node */
    (void) mca_match_base_register_chan_params(&c->super.matchm_version, &c->priority, 40,
                                               &c->max_channels, 1024, "matched sends", NULL,
                                               false);
    return mca_match_base_register_params(&c->super.matchm_version, params,
                                          sizeof(params) / sizeof(params[0]));
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
    .super = MCA_MATCH_BASE_COMPONENT_INIT("sm", match_sm_register, match_sm_init,
                                           match_sm_finalize),
};
