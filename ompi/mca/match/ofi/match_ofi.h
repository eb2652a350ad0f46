/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/**
 * @file
 *
 * match/ofi: channels between matched requests over libfabric remote
 * memory access, with the component's own fabric, domain, address vector,
 * completion queue and reliable datagram endpoint, opened at the first pair
 * that uses them.
 *
 * Each half of a channel, send or receive, holds a *slot* of this
 * process's slot table.  A slot is named by a 64-bit value, its index and
 * its generation (how often it was handed out), and that value is the
 * remote completion queue data the peer sends with every write meant for
 * the half.  A write whose data names a slot's earlier generation is meant
 * for a channel already gone, and is ignored.
 *
 * The receiver registers, at match time, where the message lands: its
 * receive buffer when the receive is contiguous, else a bounce buffer of
 * the message's packed size (unpacked at completion), with remote write
 * access.  The sender registers nothing of its own but the component's
 * *doorbell*, a small region every endpoint has, which the receiver's
 * grants target (zero bytes written: the completion data is the grant).
 *
 * Receive m: the start writes a grant to the sender (zero bytes, injected,
 * with the sender's slot as data), then waits for the completion entry
 * that names its own slot: the sender's write of message m, which is in
 * the buffer when the entry is read.  Send m: once the sender's slot has
 * counted m grants (grants that come before the send starts are counted
 * in the slot, so none is lost), the start writes the message into the
 * receiver's buffer, with the receiver's slot as data: injected when it
 * fits the inject limit (the send is then complete at once), else posted
 * with FI_TRANSMIT_COMPLETE, and the send completes at its local
 * completion.  Since the sender writes only after the grant, at most one
 * message of a pair is in flight and a synchronous send, always granted
 * before it writes, completes once its receive has started.
 *
 * Receive rings (match_ofi_ring_entries, K): a standard or ready send whose
 * messages fit the inject limit, on a provider with 8 bytes of completion
 * data and without triggered writes for the pair, writes message m into
 * entry (m - 1) mod K of a ring the receiver registered at match time, and
 * adds that position to the completion data (the generation's low bits,
 * which slot generations step over), so that the receiver knows which
 * entry arrived whatever the order of the completions.  Entry (m - 1) mod
 * K last held message m - K, which is consumed once receive m - K
 * completed; the receiver says so in batches: its receive r starts with a
 * grant when r - 1 is a positive multiple of K / 2, so g grants allow
 * messages up to K + g K / 2, and a sender keeps ahead of its receiver
 * without a grant of its own per message.  The receive copies (or
 * unpacks) its entry.
 *
 * Triggered sends, where the provider has FI_TRIGGER and FI_RMA_EVENT
 * (match_ofi_triggered): the sender's slot gets a counter and a doorbell of
 * its own, bound to the counter, which the receiver's grants target; the
 * counter thus counts the grants.  A send that a queue will start later
 * (mca_match_channel_ops_t's arm) is posted at once as a triggered write
 * with threshold m + f (message m, the f-th triggered start of the slot),
 * and its start bumps the counter by one (fi_cntr_add).  The write runs
 * once both happened, in either order: grant m + 1 needs write m, and so
 * does the next start of the request, so the counter cannot reach the
 * threshold early.  The provider reads the data when the write runs.
 *
 * A pair moves min(sender's bytes, receiver's bytes) per message; the
 * receive reports MPI_ERR_TRUNCATE when the sender's are more.  A
 * zero-byte message is the completion data alone (written into the
 * receiver's doorbell).
 */

#ifndef MCA_MATCH_OFI_H
#define MCA_MATCH_OFI_H

#include "ompi_config.h"

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_trigger.h>

#include "opal/datatype/opal_convertor.h"
#include "opal/mca/threads/mutex.h"
#include "ompi/mca/match/match.h"
#include "ompi/mca/match/base/match_base_chan.h"
#include "ompi/request/request.h"

BEGIN_C_DECLS

/** Low bits of a slot's completion data: its index (so at most 2^24
 * slots); the generation is above them, in as many bits as the
 * provider's completion data carries. */
#define MCA_MATCH_OFI_INDEX_BITS 24
#define MCA_MATCH_OFI_INDEX_MASK ((UINT64_C(1) << MCA_MATCH_OFI_INDEX_BITS) - 1)
/** Low bits of the generation that carry a ring position (with 8 bytes of
 * completion data), so at most 2^6 ring entries. */
#define MCA_MATCH_OFI_POS_BITS 6
#define MCA_MATCH_OFI_RING_MAX (1 << MCA_MATCH_OFI_POS_BITS)
/** Bytes of a doorbell, the region grants and zero-byte messages are
 * written into. */
#define MCA_MATCH_OFI_DOORBELL_BYTES 64

typedef struct mca_match_ofi_component_t {
    mca_match_base_component_t super;
    int priority;
    unsigned int max_channels; /**< slots: channel halves of this process */
    unsigned int inject_limit; /**< messages up to this many bytes are injected */
    unsigned int ring_entries; /**< entries of a receive ring, 0: every message granted */
    bool same_node;            /**< also serve peers of this node (else leave them to sm) */
    bool ulfm;                 /**< serve pairs under ULFM too (else leave them to the PML) */
    char *provider_include;    /**< comma list of providers, empty: Open MPI's lists */
    bool triggered;            /**< arm queued sends as triggered writes where possible */
    unsigned long long triggered_starts; /**< starts that set off an armed write (pvar) */
} mca_match_ofi_component_t;

OMPI_DECLSPEC extern mca_match_ofi_component_t mca_match_ofi_component;
extern mca_match_base_module_t mca_match_ofi_module;

struct mca_match_request_t;
struct mca_match_ofi_half_t;

/**
 * A slot of the table.  Its counter of remote writes and the context of
 * its write in flight live here rather than in the half: a grant may come
 * before the sender's half exists (between offer and connect), and a
 * half released while its write is in flight leaves the slot, with the
 * write's buffer and registration, to its completion.
 */
typedef struct mca_match_ofi_slot_t {
    struct mca_match_ofi_half_t *half; /**< NULL before connect and once released */
    uint64_t remote;        /**< writes of the peer that named this generation */
    uint64_t arrived;       /**< receive rings: a bit per entry written and not yet consumed */
    uint64_t generation;
    bool used;              /**< handed out (or orphaned) */
    bool in_flight;         /**< a write with a local completion is posted from ctx */
    bool orphaned;          /**< released while in flight: freed at the completion */
    void *keep;             /**< an orphan's bounce buffer */
    struct fid_mr *keep_mr; /**< an orphan's registration of its source */
    /** send slots with triggered writes: the counter of grants and starts
     * (kept for the slot's life, cleared at each offer), the doorbell the
     * grants target (registered anew at each offer) */
    struct fid_cntr *trig_cntr;
    uint64_t *trig_bell;
    struct fid_mr *trig_bell_mr;
    uint64_t fires;         /**< triggered starts since the offer */
    /** the write's context (FI_CONTEXT, FI_CONTEXT2); a triggered write's
     * carries its trigger */
    union {
        struct fi_context2 plain;
        struct fi_triggered_context2 trig;
    } ctx;
} mca_match_ofi_slot_t;

/** One half of a channel: the matched request's mr_chan. */
typedef struct mca_match_ofi_half_t {
    mca_match_base_chan_half_t super;
    fi_addr_t peer;         /**< the peer's endpoint in the address vector */
    uint64_t peer_data;     /**< completion data naming the peer's slot */
    uint64_t peer_addr;     /**< where writes land: address, or offset without FI_MR_VIRT_ADDR */
    uint64_t peer_key;
    uint32_t slot;          /**< own slot index */
    bool has_slot;
    bool inject;            /**< send: messages are injected */
    bool armed;             /**< send: the next message is posted as a triggered write */
    uint32_t ring;          /**< entries of the receiver's ring, 0: every message granted */
    size_t stride;          /**< bytes between ring entries */
    unsigned char *ring_buf; /**< receive: the ring */
    unsigned char *bounce;  /**< packed data of a non-contiguous side */
    struct fid_mr *mr;      /**< receive: the landing buffer; send: its source (FI_MR_LOCAL) */
    void *desc;             /**< send: the source's descriptor, or NULL */
    uint64_t count;         /**< messages completed */
    int stage;              /**< progress of the current message */
} mca_match_ofi_half_t;

OBJ_CLASS_DECLARATION(mca_match_ofi_half_t);

/** What the matched request of an ofi channel runs. */
extern const mca_match_channel_ops_t mca_match_ofi_channel_ops;

/** Everything below is under this lock (taken only when threads are in use). */
extern opal_mutex_t mca_match_ofi_lock;

/** The channel: its active list, progress, stages and open state
 * (match_ofi_request.c); hidden, as every start and progress call reads it
 * and an exported variable is read through the GOT. */
extern mca_match_base_chan_t mca_match_ofi_chan __opal_attribute_visibility__("hidden");

/* the fabric, the endpoint, the registrations, the peers (match_ofi_fabric.c) */
int mca_match_ofi_open_fabric(void);
void mca_match_ofi_teardown(void);
struct fid_domain *mca_match_ofi_domain(void);
struct fid_ep *mca_match_ofi_ep(void);
struct fid_cq *mca_match_ofi_cq(void);
const char *mca_match_ofi_provider(void);
size_t mca_match_ofi_inject_size(void);
bool mca_match_ofi_mr_local(void);
size_t mca_match_ofi_max_msg_size(void);
void mca_match_ofi_own_name(const void **name, size_t *len);
void mca_match_ofi_doorbell(uint64_t *addr, uint64_t *key);
bool mca_match_ofi_data_fits(uint64_t data);
uint32_t mca_match_ofi_ring(void);
int mca_match_ofi_reach(struct ompi_proc_t *proc, const void *name, size_t len, fi_addr_t *addr);
int mca_match_ofi_mr_reg(void *buf, size_t len, uint64_t access, struct fid_mr **mr,
                         uint64_t *remote_addr, uint64_t *key, void **desc);
int mca_match_ofi_mr_reg_counted(void *buf, size_t len, uint64_t access, struct fid_cntr *cntr,
                                 struct fid_mr **mr, uint64_t *remote_addr, uint64_t *key,
                                 void **desc);
bool mca_match_ofi_triggered(void);

/** lock held: close a registration bound to the endpoint or the domain */
static inline void mca_match_ofi_mr_close(struct fid_mr *mr)
{
    if (NULL != mr) {
        (void) fi_close(&mr->fid);
    }
}

/* the slot table (match_ofi_slot.c) */
int mca_match_ofi_slots_init(uint32_t n, uint64_t gen_mask, uint64_t pos_mask);
void mca_match_ofi_slots_fini(void);
int mca_match_ofi_slot_alloc(uint32_t *index, uint64_t *data);
mca_match_ofi_slot_t *mca_match_ofi_slot(uint32_t index);
mca_match_ofi_slot_t *mca_match_ofi_slot_of_data(uint64_t data, uint32_t *pos);
mca_match_ofi_slot_t *mca_match_ofi_slot_of_context(void *context);
void mca_match_ofi_slot_release(uint32_t index, void *keep, struct fid_mr *keep_mr);
void mca_match_ofi_slot_done(mca_match_ofi_slot_t *slot);
int mca_match_ofi_slot_trigger(uint32_t index, uint64_t *addr, uint64_t *key);

/* halves (match_ofi_request.c) */
/** A new half of this channel for one side of owner (mca_match_base_chan_half_new) */
#define mca_match_ofi_half_new(owner, is_send) \
    MCA_MATCH_BASE_CHAN_HALF_NEW(mca_match_ofi_half_t, mca_match_ofi_chan, owner, is_send)
int mca_match_ofi_progress(void);

END_C_DECLS

#endif /* MCA_MATCH_OFI_H */
