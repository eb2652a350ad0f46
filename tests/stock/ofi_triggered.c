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
 * Probe of a libfabric provider's triggered operations, the ground the
 * triggered path of match/ofi is to stand on (docs/matching.md).
 *  1. An RMA write posted with FI_TRIGGER and a threshold of 1 on a counter
 *     must not move data while the counter is 0, and must complete once
 *     fi_cntr_add bumps it (the queue's trigger).
 *  2. The same counter also counts remote writes into the endpoint
 *     (FI_RMA_EVENT, the receiver's grant): a second triggered write with
 *     threshold 3 must wait for both a remote write and a second
 *     fi_cntr_add, in either order; here the remote write comes first.
 * One process writes to its own registered memory through its own
 * endpoint; nothing of Open MPI.  Build and run with
 *   cc ofi_triggered.c -o ofi_triggered -lfabric
 *   ./ofi_triggered sockets     (prints OK, exit 0)
 *   ./ofi_triggered tcp         (prints DECLINED: no FI_TRIGGER, exit 2)
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_trigger.h>

#define WORDS 8
#define POLLS_BEFORE 200000
#define POLLS_MAX 100000000L

#define CHECK(call)                                                                  \
    do {                                                                             \
        int rc_ = (int) (call);                                                      \
        if (0 != rc_) {                                                              \
            fprintf(stderr, "FAIL: %s: %s\n", #call, fi_strerror(-rc_));             \
            return 1;                                                                \
        }                                                                            \
    } while (0)

static uint64_t src[WORDS], dst[WORDS];

/* post the write of src into dst (registered as mr) with FI_TRIGGER: it
 * runs once cntr reaches threshold */
static ssize_t post_triggered(struct fid_ep *ep, const struct fi_info *info, struct fid_mr *mr,
                              fi_addr_t self, struct fid_cntr *cntr, size_t threshold,
                              struct fi_triggered_context *tctx)
{
    struct iovec iov = {.iov_base = src, .iov_len = sizeof(src)};
    struct fi_rma_iov rma = {
        .addr = (info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) ? (uint64_t) (uintptr_t) dst : 0,
        .len = sizeof(dst),
        .key = fi_mr_key(mr)};
    struct fi_msg_rma msg = {.msg_iov = &iov, .iov_count = 1, .addr = self,
                             .rma_iov = &rma, .rma_iov_count = 1, .context = tctx};

    memset(tctx, 0, sizeof(*tctx));
    tctx->event_type = FI_TRIGGER_THRESHOLD;
    tctx->trigger.threshold.cntr = cntr;
    tctx->trigger.threshold.threshold = threshold;
    return fi_writemsg(ep, &msg, FI_TRIGGER | FI_COMPLETION);
}

int main(int argc, char **argv)
{
    const char *prov = argc > 1 ? argv[1] : "sockets";
    struct fi_info *hints = fi_allocinfo(), *info = NULL;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_av *av;
    struct fid_cq *cq;
    struct fid_cntr *trigger;
    struct fid_ep *ep;
    struct fid_mr *mr;
    struct fi_av_attr av_attr = {.type = FI_AV_TABLE};
    struct fi_cq_attr cq_attr = {.format = FI_CQ_FORMAT_CONTEXT};
    struct fi_cntr_attr cntr_attr = {.events = FI_CNTR_EVENTS_COMP};
    struct fi_triggered_context tctx;
    struct fi_cq_entry entry;
    char name[256];
    size_t name_len = sizeof(name);
    fi_addr_t self;
    ssize_t n;
    long polls = 0;
    int ret;

    hints->caps = FI_RMA | FI_TRIGGER | FI_RMA_EVENT;
    hints->ep_attr->type = FI_EP_RDM;
    hints->fabric_attr->prov_name = strdup(prov);
    hints->domain_attr->mr_mode = FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY
                                  | FI_MR_ENDPOINT;
    ret = fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info);
    if (0 != ret) {
        printf("DECLINED: provider %s offers no RMA endpoint with FI_TRIGGER (%s)\n", prov,
               fi_strerror(-ret));
        return 2;
    }
    CHECK(fi_fabric(info->fabric_attr, &fabric, NULL));
    CHECK(fi_domain(fabric, info, &domain, NULL));
    CHECK(fi_av_open(domain, &av_attr, &av, NULL));
    CHECK(fi_cq_open(domain, &cq_attr, &cq, NULL));
    CHECK(fi_cntr_open(domain, &cntr_attr, &trigger, NULL));
    CHECK(fi_endpoint(domain, info, &ep, NULL));
    CHECK(fi_ep_bind(ep, &av->fid, 0));
    CHECK(fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV));
    CHECK(fi_ep_bind(ep, &trigger->fid, FI_REMOTE_WRITE));
    CHECK(fi_enable(ep));
    CHECK(fi_getname(&ep->fid, name, &name_len));
    if (1 != fi_av_insert(av, name, 1, &self, 0, NULL)) {
        fprintf(stderr, "FAIL: fi_av_insert of the endpoint's own name\n");
        return 1;
    }
    CHECK(fi_mr_reg(domain, dst, sizeof(dst), FI_REMOTE_WRITE, 0, 0, 0, &mr, NULL));
    if (info->domain_attr->mr_mode & FI_MR_ENDPOINT) {
        CHECK(fi_mr_bind(mr, &ep->fid, 0));
        CHECK(fi_mr_enable(mr));
    }
    for (int i = 0; i < WORDS; ++i) {
        src[i] = 100 + i;
        dst[i] = 0;
    }

    CHECK(post_triggered(ep, info, mr, self, trigger, 1, &tctx));
    for (int i = 0; i < POLLS_BEFORE; ++i) {
        if (0 < fi_cq_read(cq, &entry, 1)) {
            printf("FAIL: the triggered write completed before its counter moved\n");
            return 1;
        }
    }
    if (0 != dst[WORDS - 1]) {
        printf("FAIL: data arrived before the counter moved\n");
        return 1;
    }
    CHECK(fi_cntr_add(trigger, 1));
    do {
        n = fi_cq_read(cq, &entry, 1);
    } while (-FI_EAGAIN == n && ++polls < POLLS_MAX);
    if (1 != n || (void *) &tctx != entry.op_context || 100 + WORDS - 1 != dst[WORDS - 1]) {
        printf("FAIL: after fi_cntr_add: fi_cq_read %zd after %ld polls, last word %lu\n", n,
               polls, (unsigned long) dst[WORDS - 1]);
        return 1;
    }
    printf("phase 1: provider %s held the triggered write for %d polls and ran it after "
           "fi_cntr_add (%ld polls to its completion)\n",
           info->fabric_attr->prov_name, POLLS_BEFORE, polls);

    /* phase 2 counts from the counter's value now: with one endpoint,
     * phase 1's write landed as a remote write too */
    {
        uint64_t base = fi_cntr_read(trigger);
        static uint64_t grant_word = 1;
        struct fi_context grant_ctx;
        uint64_t grant_addr =
            (info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) ? (uint64_t) (uintptr_t) dst : 0;
        int grant_done = 0;

        for (int i = 0; i < WORDS; ++i) {
            src[i] = 200 + i;
        }
        CHECK(post_triggered(ep, info, mr, self, trigger, base + 2, &tctx));
        /* the grant: one word into the registered region, not the last */
        CHECK(fi_write(ep, &grant_word, sizeof(grant_word), NULL, self, grant_addr, fi_mr_key(mr),
                       &grant_ctx));
        for (polls = 0; polls < POLLS_BEFORE || !grant_done; ++polls) {
            n = fi_cq_read(cq, &entry, 1);
            if (1 == n && (void *) &grant_ctx == entry.op_context) {
                grant_done = 1;
            } else if (1 == n) {
                printf("FAIL: phase 2: the triggered write ran with the grant alone "
                       "(counter %lu, threshold %lu)\n",
                       (unsigned long) fi_cntr_read(trigger), (unsigned long) (base + 2));
                return 1;
            }
            if (polls > POLLS_MAX) {
                printf("FAIL: phase 2: the grant write never completed\n");
                return 1;
            }
        }
        if (fi_cntr_read(trigger) != base + 1) {
            printf("FAIL: phase 2: the remote write moved the counter from %lu to %lu, want +1\n",
                   (unsigned long) base, (unsigned long) fi_cntr_read(trigger));
            return 1;
        }
        CHECK(fi_cntr_add(trigger, 1));
        polls = 0;
        do {
            n = fi_cq_read(cq, &entry, 1);
        } while (-FI_EAGAIN == n && ++polls < POLLS_MAX);
        if (1 != n || (void *) &tctx != entry.op_context || 200 + WORDS - 1 != dst[WORDS - 1]) {
            printf("FAIL: phase 2: after the grant and fi_cntr_add: fi_cq_read %zd, last word "
                   "%lu\n", n, (unsigned long) dst[WORDS - 1]);
            return 1;
        }
        printf("phase 2: the remote write moved the counter by 1 and the triggered write waited "
               "for it and for fi_cntr_add\n");
    }
    printf("OK\n");
    fi_close(&mr->fid);
    fi_close(&ep->fid);
    fi_close(&trigger->fid);
    fi_close(&cq->fid);
    fi_close(&av->fid);
    fi_close(&domain->fid);
    fi_close(&fabric->fid);
    fi_freeinfo(info);
    fi_freeinfo(hints);
    return 0;
}
