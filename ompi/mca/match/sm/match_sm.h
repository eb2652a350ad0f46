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
 * match/sm: channels between matched requests of processes on one node.
 *
 * Each process owns one shared segment, created at its first offer, that
 * holds a fixed number of slots; the sender of a pair reserves a slot in
 * its own segment when it offers, the receiver attaches the sender's
 * segment when it accepts.  A slot is a single-producer/single-consumer
 * ring: the sender publishes chunks by advancing seq, the receiver consumes
 * them by advancing ack, each in its own cache line.  Both sides know the
 * pair's sizes at match time, so a message is a fixed number of chunks and
 * needs no header: messages of up to MCA_MATCH_SM_INLINE bytes travel in
 * one cache line each, stamped with their number, in a ring of
 * MCA_MATCH_SM_INLINE_LINES lines at the start of the ring area (the
 * receiver polls the stamp of the line it expects, and the sender reads
 * ack only when it has filled every line since it last did: one line moves
 * per message), larger ones through the chunk ring (a pipelined copy, packed
 * and unpacked by the convertor when a side is not contiguous), and large
 * contiguous ones by a single copy (process_vm_readv by the receiver from
 * the sender's buffer) when the kernel lets the receiver read the sender.
 */

#ifndef MCA_MATCH_SM_H
#define MCA_MATCH_SM_H

#include "ompi_config.h"

#include <sys/types.h>

#include "opal/datatype/opal_convertor.h"
#include "opal/mca/threads/mutex.h"
#include "ompi/mca/match/match.h"
#include "ompi/mca/match/base/match_base_chan.h"
#include "ompi/request/request.h"

BEGIN_C_DECLS

#define MCA_MATCH_SM_LINE 64
/** Bytes of a message that travel in one line, behind its stamp. */
#define MCA_MATCH_SM_INLINE (MCA_MATCH_SM_LINE - 8)
/** Lines of the inline ring (fewer when the ring area is smaller). */
#define MCA_MATCH_SM_INLINE_LINES 16

typedef struct mca_match_sm_component_t {
    mca_match_base_component_t super;
    int priority;
    unsigned int chunk_size;      /**< bytes of one ring entry */
    unsigned int ring_chunks;     /**< entries of a slot's ring */
    unsigned int max_channels;    /**< slots of a segment: pairs this process sends on */
    bool single_copy;             /**< try process_vm_readv for large contiguous messages */
    size_t single_copy_threshold; /**< from this many bytes */
} mca_match_sm_component_t;

OMPI_DECLSPEC extern mca_match_sm_component_t mca_match_sm_component;
extern mca_match_base_module_t mca_match_sm_module;

/** One pair's slot in the sender's segment. */
typedef struct mca_match_sm_slot_t {
    /* written by the sender */
    volatile uint64_t seq;                   /**< chunks published (not inline) */
    volatile uint32_t sender_closed;
    uint8_t pad0[MCA_MATCH_SM_LINE - 12];
    /* written by the receiver */
    volatile uint64_t ack __opal_attribute_aligned__(MCA_MATCH_SM_LINE); /**< chunks consumed */
    volatile uint32_t receiver_closed;
    uint8_t pad1[MCA_MATCH_SM_LINE - 12];
    /* then the ring: ring_chunks entries of chunk_size bytes */
} mca_match_sm_slot_t;

/** The head of a segment: its geometry, read by the processes that attach. */
typedef struct mca_match_sm_seg_header_t {
    uint64_t magic;
    uint64_t slot_stride;
    uint32_t chunk_size;
    uint32_t ring_chunks;
    uint32_t slots;
    uint32_t pad;
} mca_match_sm_seg_header_t;

/** A mapped segment: this process's own, or a peer's. */
typedef struct mca_match_sm_seg_t {
    pid_t pid;
    unsigned char *base;
    size_t size;
    int cma;                  /**< peers: 0 not tried, 1 readable, -1 not */
} mca_match_sm_seg_t;

/** One side of a channel: the matched request's mr_chan. */
typedef struct mca_match_sm_half_t {
    mca_match_base_chan_half_t super;
    mca_match_sm_slot_t *slot;
    unsigned char *ring;
    uint32_t slot_index;       /**< sender: its slot in the own segment */
    bool cma;                  /**< one single copy by the receiver */
    bool inl;                  /**< one stamped line per message */
    size_t chunk;              /**< bytes per chunk */
    uint64_t nchunks;          /**< chunks per message */
    uint64_t depth;            /**< chunks the ring holds (1: one at a time), or lines
                                    (inline: a power of two) */
    pid_t cma_pid;             /**< receive: the sender's process */
    uint64_t cma_addr;         /**< receive: the sender's data */
    uint64_t count;            /**< sender: chunks published; receiver: consumed */
    uint64_t peer_count;       /**< last value read of the other side's counter */
    uint64_t done;             /**< chunks of the current message moved */
    size_t offset;             /**< bytes of the current message moved */
} mca_match_sm_half_t;

OBJ_CLASS_DECLARATION(mca_match_sm_half_t);

/** What the matched request of an sm channel runs. */
extern const mca_match_channel_ops_t mca_match_sm_channel_ops;

/** Everything below is under this lock (taken only when threads are in use). */
extern opal_mutex_t mca_match_sm_lock;

/** The channel: its active list, progress and stages (match_sm_request.c);
 * hidden, as every start and progress call reads it and an exported
 * variable is read through the GOT. */
extern mca_match_base_chan_t mca_match_sm_chan __opal_attribute_visibility__("hidden");

/* segment (match_sm_segment.c) */
int mca_match_sm_segment_slot_alloc(uint32_t *index, mca_match_sm_slot_t **slot,
                                    unsigned char **ring);
void mca_match_sm_segment_slot_release(uint32_t index);
void mca_match_sm_segment_slot_closed(uint32_t index);
mca_match_sm_seg_t *mca_match_sm_segment_attach(pid_t pid);
bool mca_match_sm_segment_slot(const mca_match_sm_seg_t *seg, uint32_t index,
                               mca_match_sm_slot_t **slot, unsigned char **ring,
                               uint32_t *chunk_size, uint32_t *ring_chunks);
void mca_match_sm_segment_fini(void);

/* halves (match_sm_request.c) */
/** A new half of this channel for one side of owner (mca_match_base_chan_half_new) */
#define mca_match_sm_half_new(owner, is_send) \
    MCA_MATCH_BASE_CHAN_HALF_NEW(mca_match_sm_half_t, mca_match_sm_chan, owner, is_send)
int mca_match_sm_progress(void);

END_C_DECLS

#endif /* MCA_MATCH_SM_H */
