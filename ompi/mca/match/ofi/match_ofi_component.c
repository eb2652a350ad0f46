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
 * The ofi component: channels over libfabric remote memory access for
 * pairs that neither sm nor ucx takes.  It only builds channels; pairing
 * stays with the pml component.  Its fabric, domain, address vector,
 * completion queue and endpoint are its own (the MTL's and the BTL's are
 * set up for their protocols and are not reachable from here), made at
 * the first pair that uses them, so a program that never matches opens
 * nothing.
 */

#include "ompi_config.h"

#include "opal/mca/base/mca_base_pvar.h"
#include "opal/mca/common/ofi/common_ofi.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_base_param.h"
#include "ompi/mca/match/ofi/match_ofi.h"

opal_mutex_t mca_match_ofi_lock = OPAL_MUTEX_STATIC_INIT;

static int match_ofi_register(void)
{
    mca_base_component_t *v = &mca_match_ofi_component.super.matchm_version;
    mca_match_ofi_component_t *c = &mca_match_ofi_component;
    const mca_match_base_param_t params[] = {
        MCA_MATCH_BASE_PARAM_UINT("inject_limit", &c->inject_limit, 256,
         "Messages of up to this many bytes (and no more than the provider's inject size) are "
         "injected: the send completes when the write is posted; larger ones complete when the "
         "provider reports the write transmitted (0: inject only zero-byte messages)"),
        MCA_MATCH_BASE_PARAM_UINT("ring_entries", &c->ring_entries, 32,
         "Messages of a standard or ready send that fit the inject limit land in a ring of this "
         "many entries at the receiver, so that a send needs no grant of its own receive: the "
         "receiver grants every half ring (0: every message is granted; at most 64; needs 8 "
         "bytes of completion data)"),
        MCA_MATCH_BASE_PARAM_BOOL("ulfm", &c->ulfm, false,
         "Also serve pairs when ULFM is on (mpirun --with-ft ulfm); default: leave them to the "
         "PML channel, since libfabric 1.17's tcp provider ended a survivor with a segmentation "
         "fault inside fi_cq_read after a peer died (docs/fault-tolerance.md)"),
        {"provider_include", MCA_BASE_VAR_TYPE_STRING, OPAL_INFO_LVL_3, &c->provider_include, 0,
         NULL,
         "Comma-separated libfabric providers the channel may use, the first that fi_getinfo "
         "lists is taken (e.g. \"cxi\", \"efa\", \"opx,psm2\", \"tcp\"); empty: follow "
         "opal_common_ofi_provider_include, else opal_common_ofi_provider_exclude (whose "
         "default leaves out software providers such as tcp and sockets)"},
        MCA_MATCH_BASE_PARAM_BOOL("triggered", &c->triggered, true,
         "Where the provider has triggered operations (FI_TRIGGER and FI_RMA_EVENT): post a "
         "matched send that a queue starts later as a triggered write when it is enqueued, and "
         "have its start set it off by bumping a counter (contiguous sends only)"),
    };

    (void) mca_match_base_register_chan_params(v, &c->priority, 20, &c->max_channels, 4096,
                                               "channel halves (matched sends and receives; "
                                               "at most 2^24)",
                                               &c->same_node, false);
    (void) mca_match_base_register_params(v, params, sizeof(params) / sizeof(params[0]));
    c->triggered_starts = 0;
    (void) mca_base_component_pvar_register(v, "triggered_starts",
                                            "Starts of matched sends that set off a write "
                                            "posted in advance as a triggered operation",
                                            OPAL_INFO_LVL_5, MPI_T_PVAR_CLASS_COUNTER,
                                            MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL,
                                            MPI_T_BIND_NO_OBJECT,
                                            MCA_BASE_PVAR_FLAG_READONLY
                                                | MCA_BASE_PVAR_FLAG_CONTINUOUS,
                                            NULL, NULL, NULL, &c->triggered_starts);
    /* makes Open MPI's provider lists exist even when no other libfabric
     * component is opened in this process (no synonyms: this component's
     * provider_include is its own) */
    (void) opal_common_ofi_mca_register(NULL);
    return OMPI_SUCCESS;
}

static mca_match_base_module_t *match_ofi_init(int *priority)
{
    mca_match_ofi_component_t *c = &mca_match_ofi_component;

    if (0 == c->max_channels || c->max_channels > MCA_MATCH_OFI_INDEX_MASK + 1) {
        opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                            "match:ofi: max_channels must be between 1 and 2^24");
        return NULL;
    }
    if (1 == c->ring_entries || c->ring_entries > MCA_MATCH_OFI_RING_MAX) {
        opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                            "match:ofi: ring_entries must be 0 or between 2 and %d",
                            MCA_MATCH_OFI_RING_MAX);
        return NULL;
    }
    *priority = c->priority;
    return &mca_match_ofi_module;
}

static int match_ofi_finalize(void)
{
    return mca_match_base_chan_close(&mca_match_ofi_chan, mca_match_ofi_teardown);
}

mca_match_ofi_component_t mca_match_ofi_component = {
    .super = MCA_MATCH_BASE_COMPONENT_INIT("ofi", match_ofi_register, match_ofi_init,
                                           match_ofi_finalize),
};
