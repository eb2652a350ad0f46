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
 * What a libfabric provider alone costs for an 8-byte ping-pong, without
 * Open MPI: the floor under pml cm's plain path and under match/ofi.  Two
 * processes (fork) on this host, each with its own fabric, domain,
 * completion queue and RDM endpoint, exchange names over a socket pair,
 * then alternate rounds of three ways to move the message:
 *
 *   tagged   fi_tinject into a posted fi_trecv: what mtl ofi does
 *   write    fi_inject_writedata into the peer's registered buffer, the
 *            peer polling its completion queue for the remote data: the
 *            channel's message alone
 *   grant    the same write, but only after a zero-byte write from the
 *            receiver (its grant), one per message: the channel's protocol
 *            where every receive grants its own message
 *
 * Each round is ITERS round trips per way, the ways interleaved; the
 * figure of a way is its median over ROUNDS rounds, printed beside the
 * tagged median as a ratio.  Build and run:
 *   cc -O2 ofi_floor.c -o ofi_floor -lfabric && ./ofi_floor tcp
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>

#define ITERS 2000
#define WARMUP 500
#define ROUNDS 9
#define WAYS 3
#define POLL_LIMIT 2000000000L

static const char *way_name[WAYS] = {"tagged", "write", "grant"};

struct side {
    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_av *av;
    struct fid_cq *cq;
    struct fid_ep *ep;
    struct fid_mr *mr;
    fi_addr_t peer;
    uint64_t peer_addr, peer_key;
    uint64_t land[2]; /* [0] the message lands here, [1] the grant */
    uint64_t msg;
    struct fi_context2 ctx;
};

struct card { /* what a side tells its peer */
    char name[256];
    size_t name_len;
    uint64_t addr, key;
};

#define CHECK(call)                                                                \
    do {                                                                           \
        int rc_ = (int) (call);                                                    \
        if (0 != rc_) {                                                            \
            fprintf(stderr, "ofi_floor: %s: %s\n", #call, fi_strerror(-rc_));      \
            exit(1);                                                               \
        }                                                                          \
    } while (0)

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* one completion of the kind wanted: remote data (is_remote) or a local
 * completion; exits when none comes */
static void wait_cq(struct side *s, int is_remote, const char *step)
{
    struct fi_cq_data_entry e;
    long polls = 0;

    for (;;) {
        ssize_t n = fi_cq_read(s->cq, &e, 1);

        if (1 == n) {
            if (is_remote == (0 != (e.flags & FI_REMOTE_CQ_DATA) && NULL == e.op_context)) {
                return;
            }
            continue;
        }
        if (-FI_EAVAIL == n) {
            struct fi_cq_err_entry err;
            memset(&err, 0, sizeof(err));
            fi_cq_readerr(s->cq, &err, 0);
            fprintf(stderr, "ofi_floor: %s: error completion %s\n", step, fi_strerror(err.err));
            exit(1);
        }
        if (++polls > POLL_LIMIT) {
            fprintf(stderr, "ofi_floor: %s: no completion\n", step);
            exit(1);
        }
    }
}

static void post_recv(struct side *s)
{
    ssize_t r;

    while (-FI_EAGAIN == (r = fi_trecv(s->ep, &s->land[0], sizeof(uint64_t), NULL, s->peer, 7, 0,
                                       &s->ctx))) {
        struct fi_cq_data_entry e;
        (void) fi_cq_read(s->cq, &e, 0);
    }
    CHECK(r);
}

static void send_tagged(struct side *s)
{
    ssize_t r;

    while (-FI_EAGAIN == (r = fi_tinject(s->ep, &s->msg, sizeof(uint64_t), s->peer, 7))) {
        struct fi_cq_data_entry e;
        (void) fi_cq_read(s->cq, &e, 0);
    }
    CHECK(r);
}

static void write_to(struct side *s, size_t off, size_t len)
{
    ssize_t r;

    while (-FI_EAGAIN == (r = fi_inject_writedata(s->ep, &s->msg, len, 1, s->peer,
                                                  s->peer_addr + off, s->peer_key))) {
        struct fi_cq_data_entry e;
        (void) fi_cq_read(s->cq, &e, 0);
    }
    CHECK(r);
}

/* one round trip; side 0 sends first */
static void round_trip(struct side *s, int rank, int way)
{
    for (int turn = 0; turn < 2; ++turn) {
        int sending = (turn == rank);

        if (0 == way) {
            if (sending) {
                send_tagged(s);
            } else {
                post_recv(s);
                wait_cq(s, 0, "tagged receive");
            }
        } else if (sending) {
            if (2 == way) {
                wait_cq(s, 1, "grant");
            }
            write_to(s, 0, sizeof(uint64_t));
        } else {
            if (2 == way) {
                write_to(s, sizeof(uint64_t), 0);
            }
            wait_cq(s, 1, "write");
        }
    }
}

static void open_side(struct side *s, const char *prov)
{
    struct fi_info *hints = fi_allocinfo();
    struct fi_av_attr av_attr = {.type = FI_AV_TABLE};
    struct fi_cq_attr cq_attr = {.format = FI_CQ_FORMAT_DATA};

    hints->caps = FI_TAGGED | FI_RMA | FI_WRITE | FI_REMOTE_WRITE;
    hints->mode = FI_CONTEXT | FI_CONTEXT2;
    hints->ep_attr->type = FI_EP_RDM;
    hints->fabric_attr->prov_name = strdup(prov);
    hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY
                                  | FI_MR_ENDPOINT;
    CHECK(fi_getinfo(FI_VERSION(1, 9), NULL, NULL, 0, hints, &s->info));
    fi_freeinfo(hints);
    CHECK(fi_fabric(s->info->fabric_attr, &s->fabric, NULL));
    CHECK(fi_domain(s->fabric, s->info, &s->domain, NULL));
    CHECK(fi_av_open(s->domain, &av_attr, &s->av, NULL));
    CHECK(fi_cq_open(s->domain, &cq_attr, &s->cq, NULL));
    CHECK(fi_endpoint(s->domain, s->info, &s->ep, NULL));
    CHECK(fi_ep_bind(s->ep, &s->av->fid, 0));
    CHECK(fi_ep_bind(s->ep, &s->cq->fid, FI_TRANSMIT | FI_RECV));
    CHECK(fi_enable(s->ep));
    CHECK(fi_mr_reg(s->domain, s->land, sizeof(s->land), FI_REMOTE_WRITE, 0,
                    (s->info->domain_attr->mr_mode & FI_MR_PROV_KEY) ? 0 : 42, 0, &s->mr, NULL));
    if (s->info->domain_attr->mr_mode & FI_MR_ENDPOINT) {
        CHECK(fi_mr_bind(s->mr, &s->ep->fid, 0));
        CHECK(fi_mr_enable(s->mr));
    }
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static int run(int rank, int sock, const char *prov)
{
    struct side s;
    struct card mine, theirs;
    double t[WAYS][ROUNDS];
    char go = 0;

    memset(&s, 0, sizeof(s));
    open_side(&s, prov);
    memset(&mine, 0, sizeof(mine));
    mine.name_len = sizeof(mine.name);
    CHECK(fi_getname(&s.ep->fid, mine.name, &mine.name_len));
    mine.addr = (s.info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) ? (uint64_t) (uintptr_t) s.land
                                                                 : 0;
    mine.key = fi_mr_key(s.mr);
    if (sizeof(mine) != write(sock, &mine, sizeof(mine))
        || sizeof(theirs) != read(sock, &theirs, sizeof(theirs))) {
        fprintf(stderr, "ofi_floor: exchange of names failed\n");
        return 1;
    }
    if (1 != fi_av_insert(s.av, theirs.name, 1, &s.peer, 0, NULL)) {
        fprintf(stderr, "ofi_floor: fi_av_insert failed\n");
        return 1;
    }
    s.peer_addr = theirs.addr;
    s.peer_key = theirs.key;

    for (int r = 0; r < ROUNDS; ++r) {
        for (int w = 0; w < WAYS; ++w) {
            double t0 = 0;
            /* both sides at the same way before its clock starts */
            if (1 != write(sock, &go, 1) || 1 != read(sock, &go, 1)) {
                return 1;
            }
            for (int i = 0; i < WARMUP + ITERS; ++i) {
                if (WARMUP == i) {
                    t0 = now();
                }
                round_trip(&s, rank, w);
            }
            t[w][r] = (now() - t0) / ITERS * 1e6;
        }
    }
    if (0 == rank) {
        double med[WAYS];
        for (int w = 0; w < WAYS; ++w) {
            qsort(t[w], ROUNDS, sizeof(double), cmp);
            med[w] = t[w][ROUNDS / 2];
        }
        printf("provider %s, 8-byte round trip, median of %d interleaved rounds of %d:\n",
               s.info->fabric_attr->prov_name, ROUNDS, ITERS);
        for (int w = 0; w < WAYS; ++w) {
            printf("  %-7s %7.2f us   %.2fx tagged\n", way_name[w], med[w], med[w] / med[0]);
        }
    }
    if (1 != write(sock, &go, 1) || 1 != read(sock, &go, 1)) {
        return 1;
    }
    fi_close(&s.mr->fid);
    fi_close(&s.ep->fid);
    fi_close(&s.cq->fid);
    fi_close(&s.av->fid);
    fi_close(&s.domain->fid);
    fi_close(&s.fabric->fid);
    fi_freeinfo(s.info);
    return 0;
}

int main(int argc, char **argv)
{
    const char *prov = argc > 1 ? argv[1] : "tcp";
    int sv[2], status = 0, ret;
    pid_t child;

    if (0 != socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
        perror("socketpair");
        return 1;
    }
    child = fork();
    if (0 == child) {
        close(sv[0]);
        return run(1, sv[1], prov);
    }
    close(sv[1]);
    ret = run(0, sv[0], prov);
    waitpid(child, &status, 0);
    return ret || !WIFEXITED(status) || 0 != WEXITSTATUS(status);
}
