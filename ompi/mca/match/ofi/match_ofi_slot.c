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
 * match/ofi's slot table: a slot per channel half, named in the peers'
 * writes by its index and generation (match_ofi.h), with the counter and
 * doorbell of a triggered send.  Made when the fabric opens.
 */

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include <rdma/fi_errno.h>

#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/match/base/base.h"
#include "ompi/mca/match/ofi/match_ofi.h"

static struct {
    mca_match_ofi_slot_t *slots;
    mca_match_base_slots_t free; /**< indices not handed out */
    uint32_t n;
    uint64_t gen_mask;           /**< generation bits the completion data carries */
    uint64_t pos_mask;           /**< low generation bits that carry a ring position, 0 if none */
} match_ofi_slots;

/* lock held: n slots, none handed out */
int mca_match_ofi_slots_init(uint32_t n, uint64_t gen_mask, uint64_t pos_mask)
{
    match_ofi_slots.slots = calloc(n, sizeof(mca_match_ofi_slot_t));
    if (NULL == match_ofi_slots.slots
        || OMPI_SUCCESS != mca_match_base_slots_init(&match_ofi_slots.free, n)) {
        mca_match_ofi_slots_fini();
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    match_ofi_slots.n = n;
    match_ofi_slots.gen_mask = gen_mask;
    match_ofi_slots.pos_mask = pos_mask;
    return OMPI_SUCCESS;
}

/* lock held, before the endpoint and the domain close: what the slots
 * hold is closed and freed */
void mca_match_ofi_slots_fini(void)
{
    for (uint32_t i = 0; NULL != match_ofi_slots.slots && i < match_ofi_slots.n; ++i) {
        mca_match_ofi_slot_t *s = &match_ofi_slots.slots[i];

        /* halves the program did not free keep their memory, not their
         * registration: the domain goes */
        if (NULL != s->half) {
            mca_match_ofi_mr_close(s->half->mr);
            s->half->mr = NULL;
            s->half->has_slot = false;
        }
        mca_match_ofi_mr_close(s->keep_mr);
        free(s->keep);
        mca_match_ofi_mr_close(s->trig_bell_mr);
        if (NULL != s->trig_cntr) {
            (void) fi_close(&s->trig_cntr->fid);
        }
        free(s->trig_bell);
    }
    free(match_ofi_slots.slots);
    mca_match_base_slots_fini(&match_ofi_slots.free);
    memset(&match_ofi_slots, 0, sizeof(match_ofi_slots));
}

/* lock held: a slot with its counter cleared and a new generation; data
 * is the value that names it in a peer's write */
int mca_match_ofi_slot_alloc(uint32_t *index, uint64_t *data)
{
    mca_match_ofi_slot_t *s;

    if (OMPI_SUCCESS != mca_match_base_slots_get(&match_ofi_slots.free, index)) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    s = &match_ofi_slots.slots[*index];
    /* the generation steps over the bits of a ring position, which writes
     * into a ring add to the data */
    s->generation = (s->generation + match_ofi_slots.pos_mask + 1) & match_ofi_slots.gen_mask;
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
    return &match_ofi_slots.slots[index];
}

/* lock held: the slot a peer's write names, NULL when the write is meant
 * for a channel gone since; pos: the ring position the write carries (0
 * outside rings) */
mca_match_ofi_slot_t *mca_match_ofi_slot_of_data(uint64_t data, uint32_t *pos)
{
    uint64_t index = data & MCA_MATCH_OFI_INDEX_MASK;
    uint64_t gen = (data >> MCA_MATCH_OFI_INDEX_BITS) & match_ofi_slots.gen_mask;
    mca_match_ofi_slot_t *s;

    if (index >= match_ofi_slots.n) {
        return NULL;
    }
    s = &match_ofi_slots.slots[index];
    if (!s->used || s->orphaned || s->generation != (gen & ~match_ofi_slots.pos_mask)) {
        return NULL;
    }
    *pos = (uint32_t) (gen & match_ofi_slots.pos_mask);
    return s;
}

/* lock held: the slot whose context a local completion carries, or NULL
 * (every write posted with a completion carries its slot's ctx) */
mca_match_ofi_slot_t *mca_match_ofi_slot_of_context(void *context)
{
    mca_match_ofi_slot_t *s = (mca_match_ofi_slot_t *) ((char *) context
                                                        - offsetof(mca_match_ofi_slot_t, ctx));

    if (NULL == context || NULL == match_ofi_slots.slots || s < match_ofi_slots.slots
        || s >= match_ofi_slots.slots + match_ofi_slots.n) {
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
    s = &match_ofi_slots.slots[index];
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
    mca_match_ofi_mr_close(s->keep_mr);
    free(s->keep);
    s->keep_mr = NULL;
    s->keep = NULL;
    s->orphaned = false;
    /* the next offer registers the doorbell anew: a grant of a pair gone
     * must not count for the next */
    mca_match_ofi_mr_close(s->trig_bell_mr);
    s->trig_bell_mr = NULL;
    if (s->used) {
        s->used = false;
        mca_match_base_slots_put(&match_ofi_slots.free, (uint32_t) (s - match_ofi_slots.slots));
    }
}

/* lock held: a send slot's counter (cleared) and its own doorbell, bound
 * to the counter, where the receiver's grants land: the grants are then
 * counted where a triggered write's threshold reads them */
int mca_match_ofi_slot_trigger(uint32_t index, uint64_t *addr, uint64_t *key)
{
    mca_match_ofi_slot_t *s = &match_ofi_slots.slots[index];
    struct fi_cntr_attr attr;
    void *desc;
    int ret;

    if (!mca_match_ofi_triggered()) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    if (NULL == s->trig_cntr) {
        memset(&attr, 0, sizeof(attr));
        attr.events = FI_CNTR_EVENTS_COMP;
        attr.wait_obj = FI_WAIT_NONE;
        ret = fi_cntr_open(mca_match_ofi_domain(), &attr, &s->trig_cntr, NULL);
        if (0 != ret) {
            s->trig_cntr = NULL;
            goto err_fi;
        }
    }
    if (NULL == s->trig_bell) {
        s->trig_bell = calloc(1, MCA_MATCH_OFI_DOORBELL_BYTES);
        if (NULL == s->trig_bell) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
    }
    ret = fi_cntr_set(s->trig_cntr, 0);
    if (0 != ret) {
        goto err_fi;
    }
    s->fires = 0;
    ret = mca_match_ofi_mr_reg_counted(s->trig_bell, MCA_MATCH_OFI_DOORBELL_BYTES, FI_REMOTE_WRITE,
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
