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
 * match/ucx: channels between matched requests over UCX remote memory
 * access and UCX's rendezvous, with the component's own UCX context and
 * worker, created at the first pair that uses them.
 *
 * Each process owns one region allocated by UCX (so that UCX's shared
 * memory transports can map it: a put is then a store), cut into slots;
 * each half of a channel holds one.  The first line of a slot is the word
 * the peer writes: the receiver writes the sender's *grant* (how many
 * receives it has started), the sender writes the receiver's *flag* (how
 * many messages it has delivered).  Behind the line, a receiver's slot has
 * an inline ring of MCA_MATCH_UCX_INLINE_DEPTH lines, then a ring of
 * MCA_MATCH_UCX_DEPTH entries of eager_limit bytes.
 *
 * A message of at most MCA_MATCH_UCX_INLINE_MAX bytes goes into one line
 * of the inline ring, behind a stamp (the message's number): message m
 * may go once the receiver started receive m - INLINE_DEPTH + 1, the
 * receiver polls the stamp of the line it expects, and the sender reads
 * the grant only when the one it last read does not cover m, so that
 * one line moves per message.  The stamp is stored after the data with
 * release order, or put after a fence.
 *
 * A larger message of at most eager_limit bytes is put into the receiver's ring
 * (message m may go once the receiver started receive m - DEPTH + 1: the
 * entry it reuses was consumed by then), followed by the flag put, which a
 * fence orders after it (both go into the region, over one lane): the
 * receiver polls the flag of the message it expects, and data is there
 * when it shows.  When UCX maps the peer's region into this process
 * (ucp_rkey_ptr: a shared-memory transport), these puts are plain stores,
 * the flag's and the grant's with release order.
 *
 * A larger message goes by UCX's rendezvous: the receive start posts a tag
 * receive of the channel's own tag into the receive buffer (or a bounce
 * buffer when the receive is not contiguous), then grants; the send, once
 * granted, is a tag send of that tag.  On one node and over TCP, UCX
 * (1.13) reaches user memory with its zero-copy transports (cma, TCP
 * zero-copy) only through its rendezvous: a put into a registered user
 * buffer is emulated there with active messages, copied twice.  The tag is
 * unique in the receiver's worker (its slot and generation), so UCX's
 * lookup of it is a hash hit, not MPI matching.
 */

#ifndef MCA_MATCH_UCX_H
#define MCA_MATCH_UCX_H

#include "ompi_config.h"

#include <ucp/api/ucp.h>

#include "opal/datatype/opal_convertor.h"
#include "opal/mca/threads/mutex.h"
#include "ompi/mca/match/match.h"
#include "ompi/mca/match/base/match_base_chan.h"
#include "ompi/request/request.h"

BEGIN_C_DECLS

#define MCA_MATCH_UCX_LINE 64
/** Lines of a receiver's inline ring (inline messages in flight + 1). */
#define MCA_MATCH_UCX_INLINE_DEPTH 16
/** An inline line: the stamp, then the message. */
#define MCA_MATCH_UCX_STAMP_BYTES 8
/** Bytes of an inline message: a line less its stamp. */
#define MCA_MATCH_UCX_INLINE_MAX (MCA_MATCH_UCX_LINE - MCA_MATCH_UCX_STAMP_BYTES)
/** Offset of the ring in a slot: the word's line, then the inline lines. */
#define MCA_MATCH_UCX_RING_AT (MCA_MATCH_UCX_LINE * (1 + MCA_MATCH_UCX_INLINE_DEPTH))
/** Ring entries of a receiver's slot (eager messages in flight + 1). */
#define MCA_MATCH_UCX_DEPTH 2
/** A slot word: the slot's generation above MCA_MATCH_UCX_COUNT_BITS, a
 * count of messages (flag) or receives (grant) below. */
#define MCA_MATCH_UCX_COUNT_BITS 40
#define MCA_MATCH_UCX_COUNT_MASK ((UINT64_C(1) << MCA_MATCH_UCX_COUNT_BITS) - 1)
#define MCA_MATCH_UCX_GEN_MASK ((UINT32_C(1) << (64 - MCA_MATCH_UCX_COUNT_BITS)) - 1)

typedef struct mca_match_ucx_component_t {
    mca_match_base_component_t super;
    int priority;
    unsigned int max_channels; /**< slots of the region: channel halves of this process */
    unsigned int eager_limit;  /**< bytes of one ring entry */
    bool same_node;            /**< also serve peers of this node (else leave them to sm) */
    bool map_peer;             /**< store into a peer's region UCX maps here, instead of puts */
} mca_match_ucx_component_t;

OMPI_DECLSPEC extern mca_match_ucx_component_t mca_match_ucx_component;
extern mca_match_base_module_t mca_match_ucx_module;

struct mca_match_request_t;

/** One half of a channel: the matched request's mr_chan. */
typedef struct mca_match_ucx_half_t {
    mca_match_base_chan_half_t super; /**< status: an operation's error */
    ucp_ep_h ep;                   /**< to the peer's worker */
    ucp_rkey_h slot_rkey;          /**< the peer's region (the component's, per peer) */
    uint64_t peer_slot;            /**< address of the peer's slot */
    unsigned char *peer_ptr;       /**< the peer's slot mapped here (shared memory), or NULL */
    ucp_tag_t tag;                 /**< the channel's tag (rendezvous messages) */
    volatile uint64_t *word;       /**< own slot's first word, written by the peer */
    unsigned char *ring;           /**< receiver: own slot's ring */
    unsigned char *lines;          /**< receiver: own slot's inline ring */
    uint32_t slot_index;
    uint32_t own_gen;              /**< generation of the own slot */
    uint64_t peer_gen;             /**< generation of the peer's slot, shifted in place */
    bool has_slot;                 /**< slot_index is this request's to release */
    bool eager;                    /**< through the receiver's rings, else by rendezvous */
    bool inline_msg;               /**< eager, in a line of the inline ring */
    size_t entry;                  /**< bytes of one ring entry (the peer's eager limit) */
    unsigned char *bounce;         /**< packed data (non-contiguous side, rendezvous) */
    uint64_t count;                /**< sender: messages put; receiver: received */
    uint64_t granted;              /**< receiver: receives granted (started) */
    uint64_t grant_seen;           /**< sender: the grant as last read */
    uint64_t put_word;             /**< source of the last flag or grant put */
    int stage;                     /**< progress of the current message */
    void *ops[2];                  /**< UCX operations in flight (tag receive: ops[1]) */
} mca_match_ucx_half_t;

OBJ_CLASS_DECLARATION(mca_match_ucx_half_t);

/** What the matched request of a ucx channel runs. */
extern const mca_match_channel_ops_t mca_match_ucx_channel_ops;

/** Everything below is under this lock (taken only when threads are in use). */
extern opal_mutex_t mca_match_ucx_lock;

/** The channel: its active list, progress, stages and open state
 * (match_ucx_request.c); hidden, as every start and progress call reads it
 * and an exported variable is read through the GOT. */
extern mca_match_base_chan_t mca_match_ucx_chan __opal_attribute_visibility__("hidden");

/* the context, the worker, the region, the endpoints (match_ucx_component.c) */
int mca_match_ucx_open_worker(void);
ucp_worker_h mca_match_ucx_worker(void);
int mca_match_ucx_own_address(const ucp_address_t **address, size_t *len);
int mca_match_ucx_region_rkey(const void **rkey, size_t *len);
int mca_match_ucx_slot_alloc(uint32_t *index, uint64_t *address, uint32_t *generation);
void mca_match_ucx_slot_release(uint32_t index);
int mca_match_ucx_reach(struct ompi_proc_t *proc, const void *address, size_t address_len,
                        const void *rkey, size_t rkey_len, ucp_ep_h *ep, ucp_rkey_h *region_rkey);

/* halves (match_ucx_request.c) */
/** A new half of this channel for one side of owner (mca_match_base_chan_half_new) */
#define mca_match_ucx_half_new(owner, is_send) \
    MCA_MATCH_BASE_CHAN_HALF_NEW(mca_match_ucx_half_t, mca_match_ucx_chan, owner, is_send)
int mca_match_ucx_progress(void);

END_C_DECLS

#endif /* MCA_MATCH_UCX_H */
