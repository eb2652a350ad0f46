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
 * match/ofi's fabric: its provider, its objects, its registrations and
 * the peers' endpoints; opened once (mca_match_ofi_open_fabric).
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

#include "opal/mca/common/ofi/common_ofi.h"
#include "opal/util/argv.h"
#include "opal/util/output.h"
#include "opal/util/proc.h"
#include "ompi/constants.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/ofi/match_ofi.h"
#include "ompi/proc/proc.h"

/* registration modes this component follows */
#define MATCH_OFI_MR_MODES \
    (FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT)

#define MATCH_OFI_NAME_MAX 512
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
    uint32_t ring;            /**< entries of a receive ring, 0: every message granted */
    uint64_t next_key;        /**< requested keys (without FI_MR_PROV_KEY) */
    unsigned char name[MATCH_OFI_NAME_MAX];
    size_t name_len;
    void *doorbell;
    struct fid_mr *doorbell_mr;
    uint64_t doorbell_addr;
    uint64_t doorbell_key;
    bool triggered;           /**< the provider has FI_TRIGGER and FI_RMA_EVENT, and they are wanted */
    mca_match_base_peers_t peers; /**< of match_ofi_peer_t */
} match_ofi;


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

/* lock held: everything opened closed, for a new open */
void mca_match_ofi_teardown(void)
{
    if (NULL != match_ofi.cq && NULL != match_ofi.ep) {
        match_ofi_drain();
    }
    mca_match_ofi_slots_fini();
    mca_match_ofi_mr_close(match_ofi.doorbell_mr);
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

static int match_ofi_fi_failed(const char *what, int ret)
{
    opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                        "match:ofi: %s failed (%s): pairs fall back", what, fi_strerror(-ret));
    return OMPI_ERR_NOT_AVAILABLE;
}

/* lock held: match_ofi.info, the provider chosen by the rules above */
static int match_ofi_open_provider(void)
{
    struct fi_info *hints, *list = NULL, *chosen;
    int ret;

    hints = fi_allocinfo();
    if (NULL == hints) {
        return OMPI_ERR_OUT_OF_RESOURCE;
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
        return match_ofi_fi_failed("fi_getinfo", ret);
    }
    chosen = match_ofi_choose(list);
    if (NULL == chosen) {
        fi_freeinfo(list);
        opal_output_verbose(MCA_BASE_VERBOSE_INFO, OMPI_MATCH_BASE_OUTPUT,
                            "match:ofi: no libfabric provider fits (match_base_verbose 60 "
                            "tells why each was skipped): pairs fall back");
        return OMPI_ERR_NOT_AVAILABLE;
    }
    match_ofi.info = fi_dupinfo(chosen);
    fi_freeinfo(list);
    if (NULL == match_ofi.info) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    if (mca_match_ofi_component.triggered) {
        match_ofi_want_triggers();
    }
    return OMPI_SUCCESS;
}

/* what the provider allows: registration modes, injected sizes, and the
 * bits of completion data for generations and ring positions */
static void match_ofi_limits(uint64_t *gen_mask, uint64_t *pos_mask)
{
    const mca_match_ofi_component_t *c = &mca_match_ofi_component;
    size_t cq_data = match_ofi.info->domain_attr->cq_data_size;

    match_ofi.mr_mode = match_ofi_mr_bits(match_ofi.info);
    match_ofi.inject = c->inject_limit < match_ofi.info->tx_attr->inject_size
                           ? c->inject_limit
                           : match_ofi.info->tx_attr->inject_size;
    *gen_mask = cq_data >= sizeof(uint64_t)
                    ? (UINT64_C(1) << (64 - MCA_MATCH_OFI_INDEX_BITS)) - 1
                    : (UINT64_C(1) << (8 * cq_data - MCA_MATCH_OFI_INDEX_BITS)) - 1;
    /* a ring position takes the generation's low bits: with 8 bytes of
     * completion data 34 bits of generation stay, with 4 too few */
    *pos_mask = 0;
    if (cq_data >= sizeof(uint64_t)) {
        *pos_mask = (UINT64_C(1) << MCA_MATCH_OFI_POS_BITS) - 1;
        match_ofi.ring = c->ring_entries;
    }
    match_ofi.next_key = 1;
}

/* lock held: the fabric, the domain, the address vector, the completion
 * queue and the endpoint, bound and enabled, and the endpoint's name */
static int match_ofi_open_endpoint(void)
{
    struct fi_av_attr av_attr;
    struct fi_cq_attr cq_attr;
    int ret;

    ret = fi_fabric(match_ofi.info->fabric_attr, &match_ofi.fabric, NULL);
    if (0 != ret) {
        return match_ofi_fi_failed("fi_fabric", ret);
    }
    ret = fi_domain(match_ofi.fabric, match_ofi.info, &match_ofi.domain, NULL);
    if (0 != ret) {
        return match_ofi_fi_failed("fi_domain", ret);
    }
    memset(&av_attr, 0, sizeof(av_attr));
    av_attr.type = match_ofi.info->domain_attr->av_type;
    ret = fi_av_open(match_ofi.domain, &av_attr, &match_ofi.av, NULL);
    if (0 != ret) {
        return match_ofi_fi_failed("fi_av_open", ret);
    }
    /* room for a local completion per slot and a remote one per slot */
    memset(&cq_attr, 0, sizeof(cq_attr));
    cq_attr.format = FI_CQ_FORMAT_DATA;
    cq_attr.wait_obj = FI_WAIT_NONE;
    cq_attr.size = 2 * (size_t) mca_match_ofi_component.max_channels;
    ret = fi_cq_open(match_ofi.domain, &cq_attr, &match_ofi.cq, NULL);
    if (0 != ret) {
        /* the provider's own size, then */
        cq_attr.size = 0;
        ret = fi_cq_open(match_ofi.domain, &cq_attr, &match_ofi.cq, NULL);
    }
    if (0 != ret) {
        return match_ofi_fi_failed("fi_cq_open", ret);
    }
    ret = fi_endpoint(match_ofi.domain, match_ofi.info, &match_ofi.ep, NULL);
    if (0 != ret) {
        return match_ofi_fi_failed("fi_endpoint", ret);
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
        return match_ofi_fi_failed("fi_ep_bind/fi_enable", ret);
    }
    match_ofi.name_len = sizeof(match_ofi.name);
    ret = fi_getname(&match_ofi.ep->fid, match_ofi.name, &match_ofi.name_len);
    if (0 != ret) {
        return match_ofi_fi_failed("fi_getname", ret);
    }
    return OMPI_SUCCESS;
}

/* lock held: the doorbell, what grants and zero-byte messages are
 * written into, registered */
static int match_ofi_open_doorbell(void)
{
    void *desc;

    match_ofi.doorbell = calloc(1, MCA_MATCH_OFI_DOORBELL_BYTES);
    if (NULL == match_ofi.doorbell) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    return mca_match_ofi_mr_reg(match_ofi.doorbell, MCA_MATCH_OFI_DOORBELL_BYTES,
                                FI_REMOTE_WRITE, &match_ofi.doorbell_mr,
                                &match_ofi.doorbell_addr, &match_ofi.doorbell_key, &desc);
}

/* lock held: the provider, the endpoint, the doorbell and the slots */
static int match_ofi_open(void)
{
    uint64_t gen_mask = 0, pos_mask = 0;
    int ret;

    ret = mca_match_base_peers_init(&match_ofi.peers);
    if (OMPI_SUCCESS == ret) {
        ret = match_ofi_open_provider();
    }
    if (OMPI_SUCCESS == ret) {
        match_ofi_limits(&gen_mask, &pos_mask);
        ret = match_ofi_open_endpoint();
    }
    if (OMPI_SUCCESS == ret) {
        ret = match_ofi_open_doorbell();
    }
    if (OMPI_SUCCESS == ret) {
        ret = mca_match_ofi_slots_init(mca_match_ofi_component.max_channels, gen_mask, pos_mask);
    }
    if (OMPI_SUCCESS != ret) {
        goto err_teardown;
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
                        mca_match_ofi_component.max_channels, match_ofi.ring);
    return OMPI_SUCCESS;

err_teardown:
    /* the next pair does not try again (mca_match_base_chan_open) */
    mca_match_ofi_teardown();
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
int mca_match_ofi_mr_reg_counted(void *buf, size_t len, uint64_t access, struct fid_cntr *cntr,
                                 struct fid_mr **mr, uint64_t *remote_addr, uint64_t *key,
                                 void **desc)
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
        mca_match_ofi_mr_close(*mr);
        *mr = NULL;
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    *key = fi_mr_key(*mr);
    if (FI_KEY_NOTAVAIL == *key) {
        mca_match_ofi_mr_close(*mr);
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
    return mca_match_ofi_mr_reg_counted(buf, len, access, NULL, mr, remote_addr, key, desc);
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

bool mca_match_ofi_triggered(void)
{
    return match_ofi.triggered;
}

struct fid_domain *mca_match_ofi_domain(void)
{
    return match_ofi.domain;
}
