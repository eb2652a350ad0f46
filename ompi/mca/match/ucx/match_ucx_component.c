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
 * The ucx component: channels over UCX (remote memory access, or stores
 * into a peer's region UCX maps here; a rendezvous for large messages)
 * for pairs the sm component does not take (another node; or any peer
 * once sm is deselected).  It only builds channels; pairing stays with the pml
 * component.  Its UCX context, worker and region are made at the first
 * pair that uses them, so a program that never matches pays nothing.
 */

#include "ompi_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_base_param.h"
#include "ompi/mca/match/ucx/match_ucx.h"
#include "ompi/proc/proc.h"
#include "ompi/runtime/params.h"

opal_mutex_t mca_match_ucx_lock = OPAL_MUTEX_STATIC_INIT;

/* A peer's worker as this process reaches it: the endpoint and the key of
 * the peer's region, made once per peer and worker (the handshake carries
 * them with every pair, so a peer whose worker changed, in a new session,
 * gets a new record; the old one is closed at finalize). */
typedef struct {
    mca_match_base_peer_t super; /**< name: the worker address, then the packed region key */
    ucp_ep_h ep;
    ucp_rkey_h region_rkey;
    bool emulated;            /**< under ULFM: UCX emulates puts to it (not used) */
} match_ucx_peer_t;

static void match_ucx_peer_construct(match_ucx_peer_t *p)
{
    p->ep = NULL;
    p->region_rkey = NULL;
    p->emulated = false;
}

static OBJ_CLASS_INSTANCE(match_ucx_peer_t, mca_match_base_peer_t, match_ucx_peer_construct,
                          NULL);

static struct {
    ucp_context_h context;
    ucp_worker_h worker;
    ucp_address_t *address;
    size_t address_len;
    ucp_mem_h region_mh;
    unsigned char *region;
    size_t slot_size;
    void *region_rkey;
    size_t region_rkey_len;
    mca_match_base_slots_t slots;
    uint32_t *generation;     /**< per slot: how often it was handed out */
    mca_match_base_peers_t peers; /**< of match_ucx_peer_t */
} match_ucx;

static int match_ucx_register(void)
{
    mca_match_ucx_component_t *c = &mca_match_ucx_component;
    const mca_match_base_param_t params[] = {
        MCA_MATCH_BASE_PARAM_UINT("eager_limit", &c->eager_limit, 1024,
         "Messages of up to this many bytes are written into a ring of the receiver's (one may "
         "be in flight before its receive starts; up to 56 bytes, one line each, 15 may); "
         "larger ones go by UCX's rendezvous into the receive buffer once the receive has "
         "started"),
        MCA_MATCH_BASE_PARAM_BOOL("map_peer", &c->map_peer, true,
         "When UCX maps a peer's region into this process (shared-memory transports), write "
         "flags, grants and eager messages with stores instead of puts"),
    };

    /* the registered region holds max_channels slots */
    (void) mca_match_base_register_chan_params(&c->super.matchm_version, &c->priority, 30,
                                               &c->max_channels, 4096,
                                               "channel halves (matched sends and receives)",
                                               &c->same_node, true);
    return mca_match_base_register_params(&c->super.matchm_version, params,
                                          sizeof(params) / sizeof(params[0]));
}

static mca_match_base_module_t *match_ucx_init(int *priority)
{
    mca_match_ucx_component_t *c = &mca_match_ucx_component;

    if (0 == c->max_channels) {
        opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                            "match:ucx: max_channels must be > 0");
        return NULL;
    }
    c->eager_limit = (c->eager_limit + MCA_MATCH_UCX_LINE - 1) & ~(MCA_MATCH_UCX_LINE - 1u);
    memset(&match_ucx, 0, sizeof(match_ucx));
    *priority = c->priority;
    return &mca_match_ucx_module;
}

/* lock held: let the peers acknowledge what this process put (over TCP
 * a put is complete only once the peer's worker answered), for a while:
 * a peer may be gone already */
static void match_ucx_flush(void)
{
    ucp_request_param_t param = {.op_attr_mask = 0};
    ucs_status_ptr_t req = ucp_worker_flush_nbx(match_ucx.worker, &param);

    if (UCS_PTR_IS_PTR(req)) {
        for (int i = 0; i < 1000000 && UCS_INPROGRESS == ucp_request_check_status(req); ++i) {
            ucp_worker_progress(match_ucx.worker);
        }
        ucp_request_free(req);
    }
}

/* lock held: a peer's record at finalize */
static void match_ucx_close_ep(mca_match_base_peer_t *record)
{
    match_ucx_peer_t *peer = (match_ucx_peer_t *) record;
    ucp_request_param_t param = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                                 .flags = UCP_EP_CLOSE_FLAG_FORCE};
    ucs_status_ptr_t req;

    if (NULL != peer->region_rkey) {
        ucp_rkey_destroy(peer->region_rkey);
    }
    if (NULL == peer->ep) {
        return;
    }
    req = ucp_ep_close_nbx(peer->ep, &param);
    if (UCS_PTR_IS_PTR(req)) {
        while (UCS_INPROGRESS == ucp_request_check_status(req)) {
            ucp_worker_progress(match_ucx.worker);
        }
        ucp_request_free(req);
    }
}

static void match_ucx_teardown(void)
{
    if (mca_match_base_chan_is_open(&mca_match_ucx_chan)) {
        match_ucx_flush();
    }
    mca_match_base_peers_fini(&match_ucx.peers, match_ucx_close_ep);
    if (NULL != match_ucx.region_rkey) {
        ucp_rkey_buffer_release(match_ucx.region_rkey);
    }
    if (NULL != match_ucx.region_mh) {
        (void) ucp_mem_unmap(match_ucx.context, match_ucx.region_mh);
    }
    if (NULL != match_ucx.address) {
        ucp_worker_release_address(match_ucx.worker, match_ucx.address);
    }
    if (NULL != match_ucx.worker) {
        ucp_worker_destroy(match_ucx.worker);
    }
    if (NULL != match_ucx.context) {
        ucp_cleanup(match_ucx.context);
    }
    mca_match_base_slots_fini(&match_ucx.slots);
    free(match_ucx.generation);
    memset(&match_ucx, 0, sizeof(match_ucx));
}

/* lock held: the context, the worker and the region */
static int match_ucx_open(void)
{
    const mca_match_ucx_component_t *c = &mca_match_ucx_component;
    ucp_config_t *config = NULL;
    ucp_params_t params;
    ucp_worker_params_t wparams;
    ucp_mem_map_params_t mparams;
    ucp_mem_attr_t attr;
    ucs_status_t status;

    if (OMPI_SUCCESS != mca_match_base_peers_init(&match_ucx.peers)) {
        goto err;
    }
    status = ucp_config_read("MPI", NULL, &config);
    if (UCS_OK != status) {
        goto err_ucx;
    }
    memset(&params, 0, sizeof(params));
    params.field_mask = UCP_PARAM_FIELD_FEATURES;
    /* RMA for the flags, grants and eager messages; TAG for the rendezvous
     * of larger ones (the only way UCX 1.13 reaches user memory with cma
     * or an RDMA read: ucp_put/get into it are emulated in software) */
    params.features = UCP_FEATURE_RMA | UCP_FEATURE_TAG;
    status = ucp_init(&params, config, &match_ucx.context);
    ucp_config_release(config);
    if (UCS_OK != status) {
        goto err_ucx;
    }
    memset(&wparams, 0, sizeof(wparams));
    wparams.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
    /* every call on the worker is made under mca_match_ucx_lock */
    wparams.thread_mode = UCS_THREAD_MODE_SERIALIZED;
    status = ucp_worker_create(match_ucx.context, &wparams, &match_ucx.worker);
    if (UCS_OK != status) {
        goto err_ucx;
    }
    status = ucp_worker_get_address(match_ucx.worker, &match_ucx.address,
                                    &match_ucx.address_len);
    if (UCS_OK != status) {
        goto err_ucx;
    }

    /* allocated by UCX, so that its shared-memory transports map it */
    match_ucx.slot_size = MCA_MATCH_UCX_RING_AT + (size_t) MCA_MATCH_UCX_DEPTH * c->eager_limit;
    memset(&mparams, 0, sizeof(mparams));
    mparams.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH
                         | UCP_MEM_MAP_PARAM_FIELD_FLAGS;
    mparams.address = NULL;
    mparams.length = match_ucx.slot_size * c->max_channels;
    mparams.flags = UCP_MEM_MAP_ALLOCATE;
    status = ucp_mem_map(match_ucx.context, &mparams, &match_ucx.region_mh);
    if (UCS_OK != status) {
        goto err_ucx;
    }
    attr.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS;
    status = ucp_mem_query(match_ucx.region_mh, &attr);
    if (UCS_OK != status) {
        goto err_ucx;
    }
    match_ucx.region = attr.address;
    status = ucp_rkey_pack(match_ucx.context, match_ucx.region_mh, &match_ucx.region_rkey,
                           &match_ucx.region_rkey_len);
    if (UCS_OK != status) {
        goto err_ucx;
    }
    match_ucx.generation = calloc(c->max_channels, sizeof(uint32_t));
    if (NULL == match_ucx.generation
        || OMPI_SUCCESS != mca_match_base_slots_init(&match_ucx.slots, c->max_channels)) {
        goto err;
    }
    opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                        "match:ucx: worker open (address %zu bytes), region of %u slots of "
                        "%zu bytes",
                        match_ucx.address_len, c->max_channels, match_ucx.slot_size);
    return OMPI_SUCCESS;

err_ucx:
    opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                        "match:ucx: cannot open a UCX worker with RMA (%s): pairs fall back",
                        ucs_status_string(status));
err:
    match_ucx_teardown();
    return OMPI_ERR_NOT_AVAILABLE;
}

/* lock held: the context, the worker and the region, once */
int mca_match_ucx_open_worker(void)
{
    return mca_match_base_chan_open(&mca_match_ucx_chan, match_ucx_open);
}

ucp_worker_h mca_match_ucx_worker(void)
{
    return match_ucx.worker;
}

int mca_match_ucx_own_address(const ucp_address_t **address, size_t *len)
{
    *address = match_ucx.address;
    *len = match_ucx.address_len;
    return OMPI_SUCCESS;
}

int mca_match_ucx_region_rkey(const void **rkey, size_t *len)
{
    *rkey = match_ucx.region_rkey;
    *len = match_ucx.region_rkey_len;
    return OMPI_SUCCESS;
}

/* lock held: the slot's word is cleared, its address and generation
 * returned.  The peer writes the generation with every value, so that a
 * late write meant for the slot's previous channel is not taken for one of
 * this channel's. */
int mca_match_ucx_slot_alloc(uint32_t *index, uint64_t *address, uint32_t *generation)
{
    unsigned char *slot;

    if (OMPI_SUCCESS != mca_match_base_slots_get(&match_ucx.slots, index)) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    *generation = ++match_ucx.generation[*index] & MCA_MATCH_UCX_GEN_MASK;
    slot = match_ucx.region + (size_t) *index * match_ucx.slot_size;
    __atomic_store_n((uint64_t *) slot, 0, __ATOMIC_RELEASE);
    *address = (uint64_t) (uintptr_t) slot;
    return OMPI_SUCCESS;
}

/* lock held */
void mca_match_ucx_slot_release(uint32_t index)
{
    if (mca_match_base_chan_is_open(&mca_match_ucx_chan)) {
        mca_match_base_slots_put(&match_ucx.slots, index);
    }
}

/* lock held: UCX's description of an endpoint's lanes (ucp_ep_print_info,
 * the one place UCX 1.13 tells whether a transfer is offloaded or
 * emulated), to be freed; NULL if it cannot be had */
static char *match_ucx_ep_text(ucp_ep_h ep)
{
    char *text = NULL;
    size_t len = 0;
    FILE *stream = open_memstream(&text, &len);

    if (NULL == stream) {
        return NULL;
    }
    ucp_ep_print_info(ep, stream);
    fclose(stream);
    return text;
}

/* lock held: which lanes UCX chose for a new endpoint (verbose 60) */
static void match_ucx_report_ep(ucp_ep_h ep)
{
    char *text;

    if (!opal_output_check_verbosity(MCA_BASE_VERBOSE_TRACE, OMPI_MATCH_BASE_OUTPUT)) {
        return;
    }
    text = match_ucx_ep_text(ep);
    if (NULL != text) {
        opal_output(OMPI_MATCH_BASE_OUTPUT, "match:ucx: new endpoint\n%s", text);
        free(text);
    }
}

#if OPAL_ENABLE_FT_MPI
/* lock held: whether UCX emulates puts on this endpoint with active
 * messages, answered by the target's worker.  UCX 1.13 ends the target
 * process (ucp_rma_sw_send_cmpl: "unexpected error") when that answer
 * goes to a source that has died, so under ULFM such a peer does not get
 * the channel.  An endpoint with a lane for remote memory access lists
 * its put protocols ("put[N]"); text that cannot be read counts as
 * emulated. */
static bool match_ucx_puts_emulated(ucp_ep_h ep)
{
    char *text = match_ucx_ep_text(ep);
    bool emulated = NULL == text || NULL == strstr(text, "lane[") || NULL == strstr(text, "put[");

    free(text);
    return emulated;
}
#endif

/* Under ULFM a peer may die: UCX reports it here instead of ending this
 * process (its default for an endpoint without an error handler).  The
 * transfers in flight to the peer fail, and the match base ends the
 * matched requests from the communicator's view of the peer. */
static void match_ucx_ep_failed(void *arg, ucp_ep_h ep, ucs_status_t status)
{
    (void) arg;
    opal_output_verbose(MCA_BASE_VERBOSE_INFO, OMPI_MATCH_BASE_OUTPUT,
                        "match:ucx: endpoint %p to a peer failed: %s", (void *) ep,
                        ucs_status_string(status));
}

/* lock held: the endpoint to a peer's worker and the key of its region */
int mca_match_ucx_reach(struct ompi_proc_t *proc, const void *address, size_t address_len,
                        const void *rkey, size_t rkey_len, ucp_ep_h *ep, ucp_rkey_h *region_rkey)
{
    match_ucx_peer_t *peer;
    ucp_ep_params_t params;

    peer = (match_ucx_peer_t *) mca_match_base_peers_find(&match_ucx.peers, proc, address,
                                                          address_len, rkey, rkey_len);
    if (NULL == peer) {
        peer = (match_ucx_peer_t *) mca_match_base_peer_new(OBJ_CLASS(match_ucx_peer_t), address,
                                                            address_len, rkey, rkey_len);
        if (NULL == peer) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        memset(&params, 0, sizeof(params));
        params.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS;
        params.address = (const ucp_address_t *) peer->super.name;
#if OPAL_ENABLE_FT_MPI
        if (ompi_ftmpi_enabled) {
            params.field_mask |= UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE
                                 | UCP_EP_PARAM_FIELD_ERR_HANDLER;
            params.err_mode = UCP_ERR_HANDLING_MODE_PEER;
            params.err_handler.cb = match_ucx_ep_failed;
            params.err_handler.arg = NULL;
        }
#endif
        if (UCS_OK != ucp_ep_create(match_ucx.worker, &params, &peer->ep)) {
            peer->ep = NULL;
            OBJ_RELEASE(peer);
            return OMPI_ERR_UNREACH;
        }
        /* kept before anything else can fail: closed at finalize */
        mca_match_base_peers_keep(&match_ucx.peers, &peer->super);
        match_ucx_report_ep(peer->ep);
#if OPAL_ENABLE_FT_MPI
        peer->emulated = ompi_ftmpi_enabled && match_ucx_puts_emulated(peer->ep);
        if (peer->emulated) {
            opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                                "match:ucx: UCX emulates puts to %s with messages: under ULFM "
                                "its pairs do not take the ucx channel",
                                OMPI_NAME_PRINT(&proc->super.proc_name));
        }
#endif
        if (UCS_OK != ucp_ep_rkey_unpack(peer->ep, rkey, &peer->region_rkey)) {
            peer->region_rkey = NULL;
            return OMPI_ERR_UNREACH;
        }
        if (OMPI_SUCCESS != mca_match_base_peers_set(&match_ucx.peers, proc, &peer->super)) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
    }
    if (peer->emulated) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    *ep = peer->ep;
    *region_rkey = peer->region_rkey;
    return OMPI_SUCCESS;
}

static int match_ucx_finalize(void)
{
    return mca_match_base_chan_close(&mca_match_ucx_chan, match_ucx_teardown);
}

mca_match_ucx_component_t mca_match_ucx_component = {
    .super = MCA_MATCH_BASE_COMPONENT_INIT("ucx", match_ucx_register, match_ucx_init,
                                           match_ucx_finalize),
};
