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
 *
 * Provider choice.  fi_getinfo is asked for reliable datagram endpoints
 * with RMA writes; a provider is taken only if remote completion data of
 * at least 4 bytes comes with it, its memory registration modes are ones
 * this component follows (FI_MR_LOCAL, FI_MR_VIRT_ADDR, FI_MR_ALLOCATED,
 * FI_MR_PROV_KEY, FI_MR_ENDPOINT; no raw keys) and it asks for no mode
 * but FI_CONTEXT or FI_CONTEXT2.  Among those, in the order fi_getinfo
 * lists them, the first that match_ofi_provider_include names, or when
 * that is empty, the first Open MPI's own opal_common_ofi_provider_include
 * names, or when that is empty too, the first that
 * opal_common_ofi_provider_exclude does not name.  That list's default
 * leaves out shm, sockets, tcp, udp and the other software providers, as
 * for the MTL and the BTL: on a cluster with no fabric hardware the
 * channel stays closed unless a provider is named.  The lists are read as
 * Open MPI's MTL and BTL read them (opal_common_ofi_is_in_list: a name
 * matches a provider whose name begins with it, "tcp" matches
 * "tcp;ofi_rxm"), and among the NICs of the provider chosen the one they
 * would take for this process (opal_common_ofi_select_provider).
 */

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include <rdma/fi_cm.h>
#include <rdma/fi_errno.h>

#include "opal/mca/base/mca_base_pvar.h"
#include "opal/mca/common/ofi/common_ofi.h"
#include "opal/util/argv.h"
#include "opal/util/output.h"
#include "opal/util/proc.h"
#include "ompi/constants.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/base/match_base_param.h"
#include "ompi/mca/match/ofi/match_ofi.h"
#include "ompi/proc/proc.h"

opal_mutex_t mca_match_ofi_lock = OPAL_MUTEX_STATIC_INIT;

/* registration modes this component follows */
#define MATCH_OFI_MR_MODES \
    (FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT)

#define MATCH_OFI_NAME_MAX 512
#define MATCH_OFI_DOORBELL_BYTES 64
/* completion queue reads at finalize, so that injected writes leave */
#define MATCH_OFI_DRAIN_READS 1000

/* A peer's endpoint as this process reaches it, inserted once per peer
 * and endpoint name (a peer whose endpoint changed, in a new session,
 * gets a new record). */
typedef struct {
    mca_match_base_peer_t super; /**< name: the peer's endpoint name */
    fi_addr_t addr;
} match_ofi_peer_t;

static void match_ofi_peer_construct(match_ofi_peer_t *p)
{
    p->addr = FI_ADDR_NOTAVAIL;
}

static OBJ_CLASS_INSTANCE(match_ofi_peer_t, mca_match_base_peer_t, match_ofi_peer_construct,
                          NULL);

static struct {
    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_av *av;
    struct fid_cq *cq;
    struct fid_ep *ep;
    uint64_t mr_mode;         /**< the provider's, as FI_MR_* bits */
    size_t inject;            /**< messages up to this many bytes are injected */
    uint64_t gen_mask;        /**< generation bits the completion data carries */
    uint64_t pos_mask;        /**< low generation bits that carry a ring position, 0 if none */
    uint32_t ring;            /**< entries of a receive ring, 0: every message granted */
    uint64_t next_key;        /**< requested keys (without FI_MR_PROV_KEY) */
    unsigned char name[MATCH_OFI_NAME_MAX];
    size_t name_len;
    void *doorbell;
    struct fid_mr *doorbell_mr;
    uint64_t doorbell_addr;
    uint64_t doorbell_key;
    bool triggered;           /**< the provider has FI_TRIGGER and FI_RMA_EVENT, and they are wanted */
    mca_match_ofi_slot_t *slots;
    mca_match_base_slots_t free_slots;
    uint32_t nslots;
    mca_match_base_peers_t peers; /**< of match_ofi_peer_t */
} match_ofi;

static int match_ofi_register(void)
{
    mca_base_component_t *v = &mca_match_ofi_component.super.matchm_version;
    mca_match_ofi_component_t *c = &mca_match_ofi_component;
    const mca_match_base_param_t params[] = {
        {"priority", MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_3, &c->priority, 20, NULL,
         "Priority of the ofi match component (channels over libfabric remote memory access; "
         "below sm and ucx, above pml)"},
        {"max_channels", MCA_BASE_VAR_TYPE_UNSIGNED_INT, OPAL_INFO_LVL_5, &c->max_channels, 4096,
         NULL,
         "Channel halves (matched sends and receives) of this process that may use libfabric at "
         "a time (at most 2^24; later pairs fall back)"},
        {"inject_limit", MCA_BASE_VAR_TYPE_UNSIGNED_INT, OPAL_INFO_LVL_5, &c->inject_limit, 256,
         NULL,
         "Messages of up to this many bytes (and no more than the provider's inject size) are "
         "injected: the send completes when the write is posted; larger ones complete when the "
         "provider reports the write transmitted (0: inject only zero-byte messages)"},
        {"ring_entries", MCA_BASE_VAR_TYPE_UNSIGNED_INT, OPAL_INFO_LVL_5, &c->ring_entries, 32,
         NULL,
         "Messages of a standard or ready send that fit the inject limit land in a ring of this "
         "many entries at the receiver, so that a send needs no grant of its own receive: the "
         "receiver grants every half ring (0: every message is granted; at most 64; needs 8 "
         "bytes of completion data)"},
        {"same_node", MCA_BASE_VAR_TYPE_BOOL, OPAL_INFO_LVL_5, &c->same_node, false, NULL,
         "Also serve pairs whose processes share a node (default: leave them to sm, ucx or the "
         "PML)"},
        {"ulfm", MCA_BASE_VAR_TYPE_BOOL, OPAL_INFO_LVL_5, &c->ulfm, false, NULL,
         "Also serve pairs when ULFM is on (mpirun --with-ft ulfm); default: leave them to the "
         "PML channel, since libfabric 1.17's tcp provider ended a survivor with a segmentation "
         "fault inside fi_cq_read after a peer died (docs/fault-tolerance.md)"},
        {"provider_include", MCA_BASE_VAR_TYPE_STRING, OPAL_INFO_LVL_3, &c->provider_include, 0,
         NULL,
         "Comma-separated libfabric providers the channel may use, the first that fi_getinfo "
         "lists is taken (e.g. \"cxi\", \"efa\", \"opx,psm2\", \"tcp\"); empty: follow "
         "opal_common_ofi_provider_include, else opal_common_ofi_provider_exclude (whose "
         "default leaves out software providers such as tcp and sockets)"},
        {"triggered", MCA_BASE_VAR_TYPE_BOOL, OPAL_INFO_LVL_5, &c->triggered, true, NULL,
         "Where the provider has triggered operations (FI_TRIGGER and FI_RMA_EVENT): post a "
         "matched send that a queue starts later as a triggered write when it is enqueued, and "
         "have its start set it off by bumping a counter (contiguous sends only)"},
    };

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
    memset(&match_ofi, 0, sizeof(match_ofi));
    *priority = c->priority;
    return &mca_match_ofi_module;
}

/* the registration modes as FI_MR_* bits (a provider may still answer
 * with the two modes of libfabric before 1.5) */
static uint64_t match_ofi_mr_bits(const struct fi_info *p)
{
    if (FI_MR_BASIC == p->domain_attr->mr_mode) {
        return FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY;
    }
    if (FI_MR_SCALABLE == p->domain_attr->mr_mode) {
        return 0;
    }
    return (uint64_t) p->domain_attr->mr_mode;
}

/* why the channel cannot run over this provider, NULL if it can */
static const char *match_ofi_unfit(const struct fi_info *p)
{
    if (p->domain_attr->cq_data_size < 4) {
        return "remote completion data of fewer than 4 bytes";
    }
    if (0 != (match_ofi_mr_bits(p) & ~(uint64_t) MATCH_OFI_MR_MODES)) {
        return "a memory registration mode this component does not follow";
    }
    if (p->domain_attr->mr_key_size > sizeof(uint64_t)) {
        return "raw memory keys";
    }
    if (0 != (p->mode & ~(FI_CONTEXT | FI_CONTEXT2))) {
        return "a mode bit other than FI_CONTEXT or FI_CONTEXT2";
    }
    return NULL;
}

static bool match_ofi_nonempty(const char *s)
{
    return NULL != s && '\0' != s[0];
}

/* the first fitting provider of the list by the rules above, or NULL */
static struct fi_info *match_ofi_choose(struct fi_info *list)
{
    const char *include = mca_match_ofi_component.provider_include;
    const char *exclude = NULL;
    char **inc = NULL, **exc = NULL;
    struct fi_info *chosen = NULL;

    if (!match_ofi_nonempty(include)) {
        include = NULL;
        if (NULL != opal_common_ofi.prov_include
            && match_ofi_nonempty(*opal_common_ofi.prov_include)) {
            include = *opal_common_ofi.prov_include;
        } else if (NULL != opal_common_ofi.prov_exclude
                   && match_ofi_nonempty(*opal_common_ofi.prov_exclude)) {
            exclude = *opal_common_ofi.prov_exclude;
        }
    }
    if (NULL != include) {
        inc = opal_argv_split(include, ',');
    }
    if (NULL != exclude) {
        exc = opal_argv_split(exclude, ',');
    }
    for (struct fi_info *p = list; NULL != p; p = p->next) {
        const char *name = p->fabric_attr->prov_name;
        const char *why = NULL;

        if (NULL != inc && !opal_common_ofi_is_in_list(inc, (char *) name)) {
            why = "not included";
        } else if (NULL != exc && opal_common_ofi_is_in_list(exc, (char *) name)) {
            why = "excluded (opal_common_ofi_provider_exclude)";
        } else {
            why = match_ofi_unfit(p);
        }
        if (NULL == why) {
            chosen = p;
            break;
        }
        opal_output_verbose(MCA_BASE_VERBOSE_TRACE, OMPI_MATCH_BASE_OUTPUT,
                            "match:ofi: provider %s (domain %s) skipped: %s", name,
                            p->domain_attr->name, why);
    }
    opal_argv_free(inc);
    opal_argv_free(exc);
    /* among the NICs of that provider, the one Open MPI's MTL and BTL
     * would take for this process (the nearest, or by local rank) */
    return NULL == chosen ? NULL : opal_common_ofi_select_provider(chosen, &opal_process_info);
}

/* lock held: close a registration bound to the endpoint or the domain */
static void match_ofi_mr_close(struct fid_mr *mr)
{
    if (NULL != mr) {
        (void) fi_close(&mr->fid);
    }
}

/* lock held: read the completion queue for a while, so that injected
 * writes leave over providers that move data only when progressed, and
 * the writes in flight complete */
static void match_ofi_drain(void)
{
    struct fi_cq_data_entry entry[8];
    struct fi_cq_err_entry err;

    for (int i = 0; i < MATCH_OFI_DRAIN_READS; ++i) {
        ssize_t n = fi_cq_read(match_ofi.cq, entry, 8);

        if (-FI_EAVAIL == n) {
            memset(&err, 0, sizeof(err));
            (void) fi_cq_readerr(match_ofi.cq, &err, 0);
        }
    }
}

static void match_ofi_teardown(void)
{
    if (NULL != match_ofi.cq && NULL != match_ofi.ep) {
        match_ofi_drain();
    }
    for (uint32_t i = 0; NULL != match_ofi.slots && i < match_ofi.nslots; ++i) {
        mca_match_ofi_slot_t *s = &match_ofi.slots[i];

        /* halves the program did not free keep their memory, not their
         * registration: the domain goes */
        if (NULL != s->half) {
            match_ofi_mr_close(s->half->mr);
            s->half->mr = NULL;
            s->half->has_slot = false;
        }
        match_ofi_mr_close(s->keep_mr);
        free(s->keep);
        match_ofi_mr_close(s->trig_bell_mr);
        if (NULL != s->trig_cntr) {
            (void) fi_close(&s->trig_cntr->fid);
        }
        free(s->trig_bell);
    }
    match_ofi_mr_close(match_ofi.doorbell_mr);
    if (NULL != match_ofi.ep) {
        (void) fi_close(&match_ofi.ep->fid);
    }
    if (NULL != match_ofi.av) {
        (void) fi_close(&match_ofi.av->fid);
    }
    if (NULL != match_ofi.cq) {
        (void) fi_close(&match_ofi.cq->fid);
    }
    if (NULL != match_ofi.domain) {
        (void) fi_close(&match_ofi.domain->fid);
    }
    if (NULL != match_ofi.fabric) {
        (void) fi_close(&match_ofi.fabric->fid);
    }
    if (NULL != match_ofi.info) {
        fi_freeinfo(match_ofi.info);
    }
    mca_match_base_peers_fini(&match_ofi.peers, NULL);
    free(match_ofi.doorbell);
    free(match_ofi.slots);
    mca_match_base_slots_fini(&match_ofi.free_slots);
    memset(&match_ofi, 0, sizeof(match_ofi));
}

/* The chosen provider again, with triggered operations and counted
 * remote writes: asked for apart, so that wanting them never changes
 * which provider is chosen; without them the channel works as before. */
static void match_ofi_want_triggers(void)
{
    struct fi_info *hints = fi_dupinfo(match_ofi.info), *list = NULL, *p;
    int ret;

    if (NULL == hints) {
        return;
    }
    hints->caps |= FI_TRIGGER | FI_RMA_EVENT;
    ret = fi_getinfo(FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION), NULL, NULL, 0ULL, hints,
                     &list);
    fi_freeinfo(hints);
    for (p = (0 == ret) ? list : NULL; NULL != p; p = p->next) {
        /* the same provider on the same NIC (the hints name its domain) */
        if (0 == strcmp(p->fabric_attr->prov_name, match_ofi.info->fabric_attr->prov_name)
            && NULL != p->domain_attr->name && NULL != match_ofi.info->domain_attr->name
            && 0 == strcmp(p->domain_attr->name, match_ofi.info->domain_attr->name)
            && FI_TRIGGER == (p->caps & FI_TRIGGER) && FI_RMA_EVENT == (p->caps & FI_RMA_EVENT)) {
            struct fi_info *dup = fi_dupinfo(p);

            if (NULL != dup) {
                fi_freeinfo(match_ofi.info);
                match_ofi.info = dup;
                match_ofi.triggered = true;
            }
            break;
        }
    }
    if (NULL != list) {
        fi_freeinfo(list);
    }
    opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                        "match:ofi: provider %s %s triggered writes",
                        match_ofi.info->fabric_attr->prov_name,
                        match_ofi.triggered ? "offers" : "offers no");
}

/* lock held: the fabric, the endpoint, the doorbell and the slots */
static int match_ofi_open(void)
{
    const mca_match_ofi_component_t *c = &mca_match_ofi_component;
    struct fi_info *hints = NULL, *list = NULL, *chosen;
    struct fi_av_attr av_attr;
    struct fi_cq_attr cq_attr;
    const char *what = NULL;
    void *desc;
    int ret;

    if (OMPI_SUCCESS != mca_match_base_peers_init(&match_ofi.peers)) {
        goto err;
    }

    hints = fi_allocinfo();
    if (NULL == hints) {
        goto err;
    }
    /* remote completion data is no capability bit: cq_data_size tells
     * (match_ofi_unfit) */
    hints->caps = FI_RMA | FI_WRITE | FI_REMOTE_WRITE;
    hints->mode = FI_CONTEXT | FI_CONTEXT2;
    hints->ep_attr->type = FI_EP_RDM;
    hints->domain_attr->mr_mode = MATCH_OFI_MR_MODES;
    /* every call is made under mca_match_ofi_lock */
    hints->domain_attr->threading = FI_THREAD_DOMAIN;
    /* the API of the headers built against; a library older than them
     * refuses it, and is asked again with an API every provider knows */
    ret = fi_getinfo(FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION), NULL, NULL, 0ULL, hints,
                     &list);
    if (0 != ret && -FI_ENODATA != ret) {
        ret = fi_getinfo(FI_VERSION(1, 9), NULL, NULL, 0ULL, hints, &list);
    }
    fi_freeinfo(hints);
    if (0 != ret) {
        what = "fi_getinfo";
        goto err_fi;
    }
    chosen = match_ofi_choose(list);
    if (NULL == chosen) {
        fi_freeinfo(list);
        opal_output_verbose(MCA_BASE_VERBOSE_INFO, OMPI_MATCH_BASE_OUTPUT,
                            "match:ofi: no libfabric provider fits (match_base_verbose 60 "
                            "tells why each was skipped): pairs fall back");
        goto err;
    }
    match_ofi.info = fi_dupinfo(chosen);
    fi_freeinfo(list);
    if (NULL == match_ofi.info) {
        goto err;
    }
    if (c->triggered) {
        match_ofi_want_triggers();
    }
    match_ofi.mr_mode = match_ofi_mr_bits(match_ofi.info);
    match_ofi.inject = c->inject_limit < match_ofi.info->tx_attr->inject_size
                           ? c->inject_limit
                           : match_ofi.info->tx_attr->inject_size;
    match_ofi.gen_mask = match_ofi.info->domain_attr->cq_data_size >= sizeof(uint64_t)
                             ? (UINT64_C(1) << (64 - MCA_MATCH_OFI_INDEX_BITS)) - 1
                             : (UINT64_C(1) << (8 * match_ofi.info->domain_attr->cq_data_size
                                                - MCA_MATCH_OFI_INDEX_BITS)) - 1;
    /* a ring position takes the generation's low bits: with 8 bytes of
     * completion data 34 bits of generation stay, with 4 too few */
    if (match_ofi.info->domain_attr->cq_data_size >= sizeof(uint64_t)) {
        match_ofi.pos_mask = (UINT64_C(1) << MCA_MATCH_OFI_POS_BITS) - 1;
        match_ofi.ring = c->ring_entries;
    }
    match_ofi.next_key = 1;

    ret = fi_fabric(match_ofi.info->fabric_attr, &match_ofi.fabric, NULL);
    if (0 != ret) {
        what = "fi_fabric";
        goto err_fi;
    }
    ret = fi_domain(match_ofi.fabric, match_ofi.info, &match_ofi.domain, NULL);
    if (0 != ret) {
        what = "fi_domain";
        goto err_fi;
    }
    memset(&av_attr, 0, sizeof(av_attr));
    av_attr.type = match_ofi.info->domain_attr->av_type;
    ret = fi_av_open(match_ofi.domain, &av_attr, &match_ofi.av, NULL);
    if (0 != ret) {
        what = "fi_av_open";
        goto err_fi;
    }
    /* room for a local completion per slot and a remote one per slot */
    memset(&cq_attr, 0, sizeof(cq_attr));
    cq_attr.format = FI_CQ_FORMAT_DATA;
    cq_attr.wait_obj = FI_WAIT_NONE;
    cq_attr.size = 2 * (size_t) c->max_channels;
    ret = fi_cq_open(match_ofi.domain, &cq_attr, &match_ofi.cq, NULL);
    if (0 != ret) {
        /* the provider's own size, then */
        cq_attr.size = 0;
        ret = fi_cq_open(match_ofi.domain, &cq_attr, &match_ofi.cq, NULL);
    }
    if (0 != ret) {
        what = "fi_cq_open";
        goto err_fi;
    }
    ret = fi_endpoint(match_ofi.domain, match_ofi.info, &match_ofi.ep, NULL);
    if (0 != ret) {
        what = "fi_endpoint";
        goto err_fi;
    }
    ret = fi_ep_bind(match_ofi.ep, &match_ofi.av->fid, 0);
    if (0 == ret) {
        /* local completions of writes, and remote ones of the peers' writes */
        ret = fi_ep_bind(match_ofi.ep, &match_ofi.cq->fid, FI_TRANSMIT | FI_RECV);
    }
    if (0 == ret) {
        ret = fi_enable(match_ofi.ep);
    }
    if (0 != ret) {
        what = "fi_ep_bind/fi_enable";
        goto err_fi;
    }
    match_ofi.name_len = sizeof(match_ofi.name);
    ret = fi_getname(&match_ofi.ep->fid, match_ofi.name, &match_ofi.name_len);
    if (0 != ret) {
        what = "fi_getname";
        goto err_fi;
    }

    /* what grants, and zero-byte messages, are written into */
    match_ofi.doorbell = calloc(1, MATCH_OFI_DOORBELL_BYTES);
    match_ofi.nslots = c->max_channels;
    match_ofi.slots = calloc(match_ofi.nslots, sizeof(mca_match_ofi_slot_t));
    if (NULL == match_ofi.doorbell || NULL == match_ofi.slots
        || OMPI_SUCCESS != mca_match_base_slots_init(&match_ofi.free_slots, match_ofi.nslots)) {
        goto err;
    }
    ret = mca_match_ofi_mr_reg(match_ofi.doorbell, MATCH_OFI_DOORBELL_BYTES, FI_REMOTE_WRITE,
                               &match_ofi.doorbell_mr, &match_ofi.doorbell_addr,
                               &match_ofi.doorbell_key, &desc);
    if (OMPI_SUCCESS != ret) {
        goto err;
    }
    /* the endpoint is progressed from now on: a peer's writes, and over
     * connection-based providers its connection, need this side too */
    mca_match_base_chan_progress_on(&mca_match_ofi_chan);
    opal_output_verbose(MCA_BASE_VERBOSE_INFO, OMPI_MATCH_BASE_OUTPUT,
                        "match:ofi: provider %s (fabric %s, domain %s), mr_mode 0x%llx, "
                        "completion data %zu bytes, messages up to %zu bytes injected, %u slots, "
                        "receive rings of %u entries",
                        match_ofi.info->fabric_attr->prov_name, match_ofi.info->fabric_attr->name,
                        match_ofi.info->domain_attr->name, (unsigned long long) match_ofi.mr_mode,
                        match_ofi.info->domain_attr->cq_data_size, match_ofi.inject,
                        match_ofi.nslots, match_ofi.ring);
    return OMPI_SUCCESS;

err_fi:
    opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                        "match:ofi: %s failed (%s): pairs fall back", what, fi_strerror(-ret));
err:
    /* the next pair does not try again (mca_match_base_chan_open) */
    match_ofi_teardown();
    return OMPI_ERR_NOT_AVAILABLE;
}

/* lock held: the fabric, the endpoint, the doorbell and the slots, once */
int mca_match_ofi_open_fabric(void)
{
    return mca_match_base_chan_open(&mca_match_ofi_chan, match_ofi_open);
}

struct fid_ep *mca_match_ofi_ep(void)
{
    return match_ofi.ep;
}

struct fid_cq *mca_match_ofi_cq(void)
{
    return match_ofi.cq;
}

const char *mca_match_ofi_provider(void)
{
    return NULL != match_ofi.info ? match_ofi.info->fabric_attr->prov_name : "";
}

size_t mca_match_ofi_inject_size(void)
{
    return match_ofi.inject;
}

size_t mca_match_ofi_max_msg_size(void)
{
    return match_ofi.info->ep_attr->max_msg_size;
}

bool mca_match_ofi_mr_local(void)
{
    return 0 != (match_ofi.mr_mode & FI_MR_LOCAL);
}

void mca_match_ofi_own_name(const void **name, size_t *len)
{
    *name = match_ofi.name;
    *len = match_ofi.name_len;
}

void mca_match_ofi_doorbell(uint64_t *addr, uint64_t *key)
{
    *addr = match_ofi.doorbell_addr;
    *key = match_ofi.doorbell_key;
}

/* entries of a receive ring, 0 where the completion data cannot carry a
 * ring position or rings are not wanted */
uint32_t mca_match_ofi_ring(void)
{
    return match_ofi.ring;
}

/* can this process's provider carry a peer's slot name as completion data? */
bool mca_match_ofi_data_fits(uint64_t data)
{
    size_t size = match_ofi.info->domain_attr->cq_data_size;

    return size >= sizeof(uint64_t) || 0 == (data >> (8 * size));
}

/* lock held: a registration of [buf, buf + len) for access, bound to the
 * endpoint where the provider wants it, and to cntr for remote writes when
 * cntr is given (FI_RMA_EVENT: the writes into it are counted there);
 * remote_addr is what a peer's write names (the address, or an offset
 * into the registration without FI_MR_VIRT_ADDR) */
static int match_ofi_mr_reg_counted(void *buf, size_t len, uint64_t access,
                                    struct fid_cntr *cntr, struct fid_mr **mr,
                                    uint64_t *remote_addr, uint64_t *key, void **desc)
{
    int ret;

    /* unique in the domain: providers without FI_MR_PROV_KEY take it as
     * the key */
    ret = fi_mr_reg(match_ofi.domain, buf, len, access, 0, match_ofi.next_key++,
                    NULL != cntr ? FI_RMA_EVENT : 0, mr, NULL);
    if (0 != ret) {
        *mr = NULL;
        opal_output_verbose(MCA_BASE_VERBOSE_INFO, OMPI_MATCH_BASE_OUTPUT,
                            "match:ofi: fi_mr_reg of %zu bytes failed: %s", len,
                            fi_strerror(-ret));
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    if (NULL != cntr) {
        ret = fi_mr_bind(*mr, &cntr->fid, FI_REMOTE_WRITE);
    }
    if (0 == ret && 0 != (match_ofi.mr_mode & FI_MR_ENDPOINT)) {
        ret = fi_mr_bind(*mr, &match_ofi.ep->fid, 0);
    }
    if (0 == ret && (NULL != cntr || 0 != (match_ofi.mr_mode & FI_MR_ENDPOINT))) {
        ret = fi_mr_enable(*mr);
        if (-FI_ENOSYS == ret && 0 == (match_ofi.mr_mode & FI_MR_ENDPOINT)) {
            /* a registration with FI_RMA_EVENT is enabled once bound, where
             * the provider has the call (sockets has not: bound is enough) */
            ret = 0;
        }
    }
    if (0 != ret) {
        opal_output_verbose(MCA_BASE_VERBOSE_INFO, OMPI_MATCH_BASE_OUTPUT,
                            "match:ofi: binding a registration to the %s failed: %s",
                            NULL != cntr ? "counter or the endpoint" : "endpoint",
                            fi_strerror(-ret));
        match_ofi_mr_close(*mr);
        *mr = NULL;
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    *key = fi_mr_key(*mr);
    if (FI_KEY_NOTAVAIL == *key) {
        match_ofi_mr_close(*mr);
        *mr = NULL;
        return OMPI_ERR_NOT_SUPPORTED;
    }
    *remote_addr = 0 != (match_ofi.mr_mode & FI_MR_VIRT_ADDR) ? (uint64_t) (uintptr_t) buf : 0;
    *desc = fi_mr_desc(*mr);
    return OMPI_SUCCESS;
}

int mca_match_ofi_mr_reg(void *buf, size_t len, uint64_t access, struct fid_mr **mr,
                         uint64_t *remote_addr, uint64_t *key, void **desc)
{
    return match_ofi_mr_reg_counted(buf, len, access, NULL, mr, remote_addr, key, desc);
}

/* lock held: the peer's endpoint in the address vector */
int mca_match_ofi_reach(struct ompi_proc_t *proc, const void *name, size_t len, fi_addr_t *addr)
{
    match_ofi_peer_t *peer;

    peer = (match_ofi_peer_t *) mca_match_base_peers_find(&match_ofi.peers, proc, name, len, NULL,
                                                          0);
    if (NULL == peer) {
        peer = (match_ofi_peer_t *) mca_match_base_peer_new(OBJ_CLASS(match_ofi_peer_t), name,
                                                            len, NULL, 0);
        if (NULL == peer) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        if (1 != fi_av_insert(match_ofi.av, peer->super.name, 1, &peer->addr, 0, NULL)) {
            opal_output_verbose(MCA_BASE_VERBOSE_INFO, OMPI_MATCH_BASE_OUTPUT,
                                "match:ofi: cannot insert the endpoint of %s into the address "
                                "vector",
                                OMPI_NAME_PRINT(&proc->super.proc_name));
            OBJ_RELEASE(peer);
            return OMPI_ERR_UNREACH;
        }
        mca_match_base_peers_keep(&match_ofi.peers, &peer->super);
        if (OMPI_SUCCESS != mca_match_base_peers_set(&match_ofi.peers, proc, &peer->super)) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
    }
    *addr = peer->addr;
    return OMPI_SUCCESS;
}

/* lock held: a slot with its counter cleared and a new generation; data
 * is the value that names it in a peer's write */
int mca_match_ofi_slot_alloc(uint32_t *index, uint64_t *data)
{
    mca_match_ofi_slot_t *s;

    if (OMPI_SUCCESS != mca_match_base_slots_get(&match_ofi.free_slots, index)) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    s = &match_ofi.slots[*index];
    /* the generation steps over the bits of a ring position, which writes
     * into a ring add to the data */
    s->generation = (s->generation + match_ofi.pos_mask + 1) & match_ofi.gen_mask;
    s->half = NULL;
    s->remote = 0;
    s->arrived = 0;
    s->used = true;
    s->in_flight = false;
    s->orphaned = false;
    s->keep = NULL;
    s->keep_mr = NULL;
    *data = ((uint64_t) s->generation << MCA_MATCH_OFI_INDEX_BITS) | *index;
    return OMPI_SUCCESS;
}

mca_match_ofi_slot_t *mca_match_ofi_slot(uint32_t index)
{
    return &match_ofi.slots[index];
}

/* lock held: the slot a peer's write names, NULL when the write is meant
 * for a channel gone since; pos: the ring position the write carries (0
 * outside rings) */
mca_match_ofi_slot_t *mca_match_ofi_slot_of_data(uint64_t data, uint32_t *pos)
{
    uint64_t index = data & MCA_MATCH_OFI_INDEX_MASK;
    uint64_t gen = (data >> MCA_MATCH_OFI_INDEX_BITS) & match_ofi.gen_mask;
    mca_match_ofi_slot_t *s;

    if (index >= match_ofi.nslots) {
        return NULL;
    }
    s = &match_ofi.slots[index];
    if (!s->used || s->orphaned || s->generation != (gen & ~match_ofi.pos_mask)) {
        return NULL;
    }
    *pos = (uint32_t) (gen & match_ofi.pos_mask);
    return s;
}

/* lock held: the slot whose context a local completion carries, or NULL
 * (every write posted with a completion carries its slot's ctx) */
mca_match_ofi_slot_t *mca_match_ofi_slot_of_context(void *context)
{
    mca_match_ofi_slot_t *s = (mca_match_ofi_slot_t *) ((char *) context
                                                        - offsetof(mca_match_ofi_slot_t, ctx));

    if (NULL == context || NULL == match_ofi.slots || s < match_ofi.slots
        || s >= match_ofi.slots + match_ofi.nslots) {
        return NULL;
    }
    return s;
}

/* lock held: a slot back to the pool with what its half leaves (a bounce
 * buffer, a registration), released now, or at the completion of the
 * write still in flight from them */
void mca_match_ofi_slot_release(uint32_t index, void *keep, struct fid_mr *keep_mr)
{
    mca_match_ofi_slot_t *s;

    if (!mca_match_base_chan_is_open(&mca_match_ofi_chan)) {
        free(keep);
        return;
    }
    s = &match_ofi.slots[index];
    s->half = NULL;
    s->keep = keep;
    s->keep_mr = keep_mr;
    if (s->in_flight) {
        s->orphaned = true;
        return;
    }
    mca_match_ofi_slot_done(s);
}

/* lock held: the slot's write completed (or it is released without one) */
void mca_match_ofi_slot_done(mca_match_ofi_slot_t *s)
{
    s->in_flight = false;
    if (NULL != s->half) {
        return;
    }
    match_ofi_mr_close(s->keep_mr);
    free(s->keep);
    s->keep_mr = NULL;
    s->keep = NULL;
    s->orphaned = false;
    /* the next offer registers the doorbell anew: a grant of a pair gone
     * must not count for the next */
    match_ofi_mr_close(s->trig_bell_mr);
    s->trig_bell_mr = NULL;
    if (s->used) {
        s->used = false;
        mca_match_base_slots_put(&match_ofi.free_slots, (uint32_t) (s - match_ofi.slots));
    }
}

static int match_ofi_finalize(void)
{
    return mca_match_base_chan_close(&mca_match_ofi_chan, match_ofi_teardown);
}

mca_match_ofi_component_t mca_match_ofi_component = {
    .super = MCA_MATCH_BASE_COMPONENT_INIT("ofi", match_ofi_register, match_ofi_init,
                                           match_ofi_finalize),
};

bool mca_match_ofi_triggered(void)
{
    return match_ofi.triggered;
}

/* lock held: a send slot's counter (cleared) and its own doorbell, bound
 * to the counter, where the receiver's grants land: the grants are then
 * counted where a triggered write's threshold reads them */
int mca_match_ofi_slot_trigger(uint32_t index, uint64_t *addr, uint64_t *key)
{
    mca_match_ofi_slot_t *s = &match_ofi.slots[index];
    struct fi_cntr_attr attr;
    void *desc;
    int ret;

    if (!match_ofi.triggered) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    if (NULL == s->trig_cntr) {
        memset(&attr, 0, sizeof(attr));
        attr.events = FI_CNTR_EVENTS_COMP;
        attr.wait_obj = FI_WAIT_NONE;
        ret = fi_cntr_open(match_ofi.domain, &attr, &s->trig_cntr, NULL);
        if (0 != ret) {
            s->trig_cntr = NULL;
            goto err_fi;
        }
    }
    if (NULL == s->trig_bell) {
        s->trig_bell = calloc(1, MATCH_OFI_DOORBELL_BYTES);
        if (NULL == s->trig_bell) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
    }
    ret = fi_cntr_set(s->trig_cntr, 0);
    if (0 != ret) {
        goto err_fi;
    }
    s->fires = 0;
    ret = match_ofi_mr_reg_counted(s->trig_bell, MATCH_OFI_DOORBELL_BYTES, FI_REMOTE_WRITE,
                                   s->trig_cntr, &s->trig_bell_mr, addr, key, &desc);
    if (OMPI_SUCCESS != ret) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    return OMPI_SUCCESS;

err_fi:
    opal_output_verbose(MCA_BASE_VERBOSE_INFO, OMPI_MATCH_BASE_OUTPUT,
                        "match:ofi: no counted doorbell for slot %u (%s): the send is never "
                        "triggered",
                        index, fi_strerror(-ret));
    return OMPI_ERR_NOT_SUPPORTED;
}
