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
 * Segments and slots.  A process's segment is named after its uid and pid,
 * so a peer on the same node finds it from the pid in an offer.  It is
 * created at the first offer (a program that never matches maps nothing),
 * sized once (max_channels slots: memory is bounded; pages are touched only
 * by the slots in use, and a slot whose messages fit inline touches one
 * line), and unlinked when the framework closes.
 *
 * A slot is reserved by an offer and returned to the pool by an abandoned
 * offer, or once both sides have freed their requests: the receiver may
 * still be reading a completed standard send after the sender freed it.
 */

#include "ompi_config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/sm/match_sm.h"

#define MATCH_SM_MAGIC 0x4d41544348534d31ull /* "MATCHSM1" */

enum { SLOT_FREE = 0, SLOT_USED = 1, SLOT_SENDER_CLOSED = 2 };

static mca_match_sm_seg_t match_sm_own = {.pid = 0, .base = NULL, .size = 0, .cma = 0};
static bool match_sm_own_failed = false;
static uint8_t *match_sm_slot_state = NULL;
static mca_match_base_slots_t match_sm_slots = {.free = NULL, .nfree = 0, .size = 0};
static uint32_t match_sm_nclosed = 0;    /* slots waiting for their receiver */
static mca_match_sm_seg_t *match_sm_peers = NULL;
static size_t match_sm_npeers = 0;

static void match_sm_name(char *name, size_t len, pid_t pid)
{
    snprintf(name, len, "/ompi-match-sm.%u.%d", (unsigned) getuid(), (int) pid);
}

static size_t match_sm_stride(uint32_t chunk_size, uint32_t ring_chunks)
{
    return sizeof(mca_match_sm_slot_t) + (size_t) chunk_size * ring_chunks;
}

/* lock held */
static int match_sm_own_create(void)
{
    const mca_match_sm_component_t *c = &mca_match_sm_component;
    mca_match_sm_seg_header_t *header;
    size_t stride = match_sm_stride(c->chunk_size, c->ring_chunks);
    size_t size = MCA_MATCH_SM_LINE + stride * c->max_channels;
    char name[64];
    void *base;
    int fd;

    if (NULL != match_sm_own.base) {
        return OMPI_SUCCESS;
    }
    if (match_sm_own_failed) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    match_sm_name(name, sizeof(name), getpid());
    fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (0 > fd && EEXIST == errno) {
        /* left behind by an earlier process with this pid */
        (void) shm_unlink(name);
        fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    }
    if (0 > fd) {
        goto err_open;
    }
    if (0 != ftruncate(fd, (off_t) size)) {
        goto err_map;
    }
    base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (MAP_FAILED == base) {
        goto err_map;
    }
    (void) close(fd);
    /* lowest index first: slots in use stay packed in few pages */
    match_sm_slot_state = calloc(c->max_channels, 1);
    if (NULL == match_sm_slot_state
        || OMPI_SUCCESS != mca_match_base_slots_init(&match_sm_slots, c->max_channels)) {
        free(match_sm_slot_state);
        match_sm_slot_state = NULL;
        (void) munmap(base, size);
        (void) shm_unlink(name);
        goto err_open;
    }
    header = (mca_match_sm_seg_header_t *) base;
    header->slot_stride = stride;
    header->chunk_size = c->chunk_size;
    header->ring_chunks = c->ring_chunks;
    header->slots = c->max_channels;
    header->magic = MATCH_SM_MAGIC;
    match_sm_own.pid = getpid();
    match_sm_own.base = base;
    match_sm_own.size = size;
    opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                        "match:sm: segment %s: %u slots of %zu bytes", name, c->max_channels,
                        stride);
    return OMPI_SUCCESS;

err_map:
    (void) close(fd);
    (void) shm_unlink(name);
err_open:
    opal_output_verbose(MCA_BASE_VERBOSE_WARN, OMPI_MATCH_BASE_OUTPUT,
                        "match:sm: cannot create segment %s (%s): pairs use another channel",
                        name, strerror(errno));
    match_sm_own_failed = true;
    return OMPI_ERR_OUT_OF_RESOURCE;
}

static size_t match_sm_inline_bytes(void)
{
    size_t ring = (size_t) mca_match_sm_component.chunk_size * mca_match_sm_component.ring_chunks;
    size_t lines = MCA_MATCH_SM_INLINE_LINES * MCA_MATCH_SM_LINE;
    return ring < lines ? ring : lines;
}

static mca_match_sm_slot_t *match_sm_slot_at(const mca_match_sm_seg_t *seg, uint32_t index)
{
    const mca_match_sm_seg_header_t *header = (const mca_match_sm_seg_header_t *) seg->base;
    return (mca_match_sm_slot_t *) (seg->base + MCA_MATCH_SM_LINE + header->slot_stride * index);
}

/* lock held: slots whose receiver let go too return to the pool */
static void match_sm_reclaim(void)
{
    for (uint32_t i = 0; 0 < match_sm_nclosed && i < mca_match_sm_component.max_channels; ++i) {
        if (SLOT_SENDER_CLOSED == match_sm_slot_state[i]
            && match_sm_slot_at(&match_sm_own, i)->receiver_closed) {
            match_sm_slot_state[i] = SLOT_FREE;
            mca_match_base_slots_put(&match_sm_slots, i);
            match_sm_nclosed--;
        }
    }
}

int mca_match_sm_segment_slot_alloc(uint32_t *index, mca_match_sm_slot_t **slot,
                                    unsigned char **ring)
{
    mca_match_sm_slot_t *s;
    int ret;

    OPAL_THREAD_LOCK(&mca_match_sm_lock);
    ret = match_sm_own_create();
    if (OMPI_SUCCESS != ret) {
        goto out;
    }
    if (0 == match_sm_slots.nfree) {
        match_sm_reclaim();
    }
    if (OMPI_SUCCESS != mca_match_base_slots_get(&match_sm_slots, index)) {
        opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_MATCH_BASE_OUTPUT,
                            "match:sm: all %u slots in use (match_sm_max_channels)",
                            mca_match_sm_component.max_channels);
        ret = OMPI_ERR_OUT_OF_RESOURCE;
        goto out;
    }
    match_sm_slot_state[*index] = SLOT_USED;
    s = match_sm_slot_at(&match_sm_own, *index);
    s->seq = 0;
    s->ack = 0;
    s->sender_closed = 0;
    s->receiver_closed = 0;
    /* stamps of an earlier pair must not look like this pair's */
    memset(s + 1, 0, match_sm_inline_bytes());
    *slot = s;
    *ring = (unsigned char *) (s + 1);
out:
    OPAL_THREAD_UNLOCK(&mca_match_sm_lock);
    return ret;
}

void mca_match_sm_segment_slot_release(uint32_t index)
{
    OPAL_THREAD_LOCK(&mca_match_sm_lock);
    match_sm_slot_state[index] = SLOT_FREE;
    mca_match_base_slots_put(&match_sm_slots, index);
    OPAL_THREAD_UNLOCK(&mca_match_sm_lock);
}

void mca_match_sm_segment_slot_closed(uint32_t index)
{
    OPAL_THREAD_LOCK(&mca_match_sm_lock);
    if (NULL != match_sm_own.base) {
        match_sm_slot_at(&match_sm_own, index)->sender_closed = 1;
        match_sm_slot_state[index] = SLOT_SENDER_CLOSED;
        match_sm_nclosed++;
        match_sm_reclaim();
    }
    OPAL_THREAD_UNLOCK(&mca_match_sm_lock);
}

/* lock held by the caller */
mca_match_sm_seg_t *mca_match_sm_segment_attach(pid_t pid)
{
    const mca_match_sm_seg_header_t *header;
    mca_match_sm_seg_t *peers;
    struct stat st;
    char name[64];
    void *base;
    int fd;

    if (pid == getpid() && NULL != match_sm_own.base) {
        return &match_sm_own;
    }
    for (size_t i = 0; i < match_sm_npeers; ++i) {
        if (match_sm_peers[i].pid == pid) {
            return &match_sm_peers[i];
        }
    }
    match_sm_name(name, sizeof(name), pid);
    fd = shm_open(name, O_RDWR, 0600);
    if (0 > fd) {
        goto err_open;
    }
    if (0 != fstat(fd, &st) || (size_t) st.st_size < MCA_MATCH_SM_LINE) {
        (void) close(fd);
        goto err_open;
    }
    base = mmap(NULL, (size_t) st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    (void) close(fd);
    if (MAP_FAILED == base) {
        goto err_open;
    }
    header = (const mca_match_sm_seg_header_t *) base;
    if (MATCH_SM_MAGIC != header->magic
        || MCA_MATCH_SM_LINE + header->slot_stride * header->slots > (size_t) st.st_size) {
        (void) munmap(base, (size_t) st.st_size);
        errno = EINVAL;
        goto err_open;
    }
    peers = realloc(match_sm_peers, (match_sm_npeers + 1) * sizeof(*peers));
    if (NULL == peers) {
        (void) munmap(base, (size_t) st.st_size);
        goto err_open;
    }
    match_sm_peers = peers;
    peers[match_sm_npeers].pid = pid;
    peers[match_sm_npeers].base = base;
    peers[match_sm_npeers].size = (size_t) st.st_size;
    peers[match_sm_npeers].cma = 0;
    return &peers[match_sm_npeers++];

err_open:
    opal_output_verbose(MCA_BASE_VERBOSE_WARN, OMPI_MATCH_BASE_OUTPUT,
                        "match:sm: cannot attach segment %s (%s)", name, strerror(errno));
    return NULL;
}

bool mca_match_sm_segment_slot(const mca_match_sm_seg_t *seg, uint32_t index,
                               mca_match_sm_slot_t **slot, unsigned char **ring,
                               uint32_t *chunk_size, uint32_t *ring_chunks)
{
    const mca_match_sm_seg_header_t *header = (const mca_match_sm_seg_header_t *) seg->base;

    if (index >= header->slots) {
        return false;
    }
    *slot = match_sm_slot_at(seg, index);
    *ring = (unsigned char *) (*slot + 1);
    *chunk_size = header->chunk_size;
    *ring_chunks = header->ring_chunks;
    return true;
}

void mca_match_sm_segment_fini(void)
{
    char name[64];

    for (size_t i = 0; i < match_sm_npeers; ++i) {
        (void) munmap(match_sm_peers[i].base, match_sm_peers[i].size);
    }
    free(match_sm_peers);
    match_sm_peers = NULL;
    match_sm_npeers = 0;
    if (NULL != match_sm_own.base) {
        match_sm_name(name, sizeof(name), match_sm_own.pid);
        (void) munmap(match_sm_own.base, match_sm_own.size);
        (void) shm_unlink(name);
        match_sm_own.base = NULL;
    }
    free(match_sm_slot_state);
    match_sm_slot_state = NULL;
    mca_match_base_slots_fini(&match_sm_slots);
    match_sm_nclosed = 0;
    match_sm_own_failed = false;
}
