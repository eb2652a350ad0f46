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
 * access, with the component's own UCX context and worker (RMA only),
 * created at the first pair that uses them.
 *
 * Each process owns one region allocated by UCX (so that UCX's shared
 * memory transports can map it: a put is then a store), cut into slots;
 * each half of a channel holds one.  The first line of a slot is the word
 * the peer writes: the receiver writes the sender's *grant* (how many
 * receives it has started), the sender writes the receiver's *flag* (how
 * many messages it has delivered).  Behind the line, a receiver's slot has
 * a ring of MCA_MATCH_UCX_DEPTH entries of eager_limit bytes.
 *
 * A message of at most eager_limit bytes is put into the receiver's ring
 * (message m may go once the receiver started receive m - DEPTH + 1: the
 * entry it reuses was consumed by then); a larger one straight into the
 * receiver's registered buffer (or a registered bounce buffer when the
 * receive is not contiguous), once the receiver started receive m.  The
 * data put is followed by the flag put, ordered after it (a fence when both
 * go into the region, over one lane; a flush of the endpoint when the data
 * went into the receive buffer, over another): the receiver polls the
 * flag of the message it expects, and data is there when it shows.
 */

#ifndef MCA_MATCH_UCX_H
#define MCA_MATCH_UCX_H

#include "ompi_config.h"

#include <ucp/api/ucp.h>

#include "opal/datatype/opal_convertor.h"
#include "opal/mca/threads/mutex.h"
#include "ompi/mca/match/match.h"
#include "ompi/request/request.h"

BEGIN_C_DECLS

#define MCA_MATCH_UCX_LINE 64
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
} mca_match_ucx_component_t;

OMPI_DECLSPEC extern mca_match_ucx_component_t mca_match_ucx_component;
extern mca_match_base_module_t mca_match_ucx_module;

/** One half of a channel: the matched request's mr_inner. */
typedef struct mca_match_ucx_request_t {
    ompi_request_t super;
    struct mca_match_ucx_request_t *next, *prev; /**< on the active list */
    ucp_ep_h ep;                   /**< to the peer's worker */
    ucp_rkey_h slot_rkey;          /**< the peer's region (the component's, per peer) */
    ucp_rkey_h data_rkey;          /**< receiver's buffer (direct messages) */
    uint64_t peer_slot;            /**< address of the peer's slot */
    uint64_t peer_data;            /**< address of the receiver's buffer (direct) */
    volatile uint64_t *word;       /**< own slot's first word, written by the peer */
    unsigned char *ring;           /**< receiver: own slot's ring */
    uint32_t slot_index;
    uint32_t own_gen;              /**< generation of the own slot */
    uint64_t peer_gen;             /**< generation of the peer's slot, shifted in place */
    bool has_slot;                 /**< slot_index is this request's to release */
    bool is_send;
    bool sync;                     /**< synchronous send: completes once granted */
    bool contiguous;               /**< this side's data is one block at cptr */
    bool eager;                    /**< messages go through the receiver's ring */
    bool truncated;                /**< receive: the sender's message is larger */
    size_t bytes;                  /**< moved per message: min of the two sides */
    size_t entry;                  /**< bytes of one ring entry (the peer's eager limit) */
    unsigned char *cptr;           /**< contiguous data */
    unsigned char *bounce;         /**< packed data (non-contiguous side, direct) */
    ucp_mem_h bounce_mh;           /**< receiver: the registered bounce, or the buffer */
    uint64_t count;                /**< sender: messages put; receiver: received */
    uint64_t granted;              /**< receiver: receives granted (started) */
    uint64_t put_word;             /**< source of the last flag or grant put */
    int stage;                     /**< progress of the current message */
    void *ops[2];                  /**< UCX operations in flight */
    int status;                    /**< error of an operation, MPI_SUCCESS if none */
    struct ompi_datatype_t *datatype; /**< retained: the program may free it */
    opal_convertor_t convertor;
} mca_match_ucx_request_t;

OBJ_CLASS_DECLARATION(mca_match_ucx_request_t);

/** Everything below is under this lock (taken only when threads are in use). */
extern opal_mutex_t mca_match_ucx_lock;

/* the context, the worker, the region, the endpoints (match_ucx_component.c) */
int mca_match_ucx_open_worker(void);
ucp_worker_h mca_match_ucx_worker(void);
int mca_match_ucx_own_address(const ucp_address_t **address, size_t *len);
int mca_match_ucx_region_rkey(const void **rkey, size_t *len);
int mca_match_ucx_slot_alloc(uint32_t *index, uint64_t *address, uint32_t *generation);
void mca_match_ucx_slot_release(uint32_t index);
int mca_match_ucx_reach(struct ompi_proc_t *proc, const void *address, size_t address_len,
                        const void *rkey, size_t rkey_len, ucp_ep_h *ep, ucp_rkey_h *region_rkey);
int mca_match_ucx_mem_map(void *buf, size_t len, ucp_mem_h *mh);
void mca_match_ucx_mem_unmap(ucp_mem_h mh);
int mca_match_ucx_rkey_pack(ucp_mem_h mh, void **rkey, size_t *len);
bool mca_match_ucx_is_open(void);
void mca_match_ucx_progress_on(void);

/* requests (match_ucx_request.c) */
mca_match_ucx_request_t *mca_match_ucx_request_new(bool is_send, void *buf, size_t count,
                                                   struct ompi_datatype_t *datatype,
                                                   struct ompi_communicator_t *comm);
int mca_match_ucx_progress(void);
void mca_match_ucx_request_fini(void);

END_C_DECLS

#endif /* MCA_MATCH_UCX_H */
