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
 * Correctness of MPI-4 partitioned communication, one behaviour per case
 * ("cases=A,B,...": the cases to run; all without it), each with its own
 * verdict line, at 2 ranks: rank 0 sends, rank 1 receives unless a case
 * says otherwise.
 *
 * With the argument "queued" the exchanges start and wait through a queue of
 * the default type (MPI_Enqueue_start, MPI_Enqueue_wait, MPI_Queue_fence)
 * instead of MPI_Start and MPI_Wait: an idle default queue starts the
 * request inside MPI_Enqueue_start, so MPI_Pready and MPI_Parrived follow
 * as they would MPI_Start.
 *
 * The data is checked against MPI_Pack/MPI_Unpack of the same datatypes:
 * the sender's buffer is made by unpacking a run of ints into its layout,
 * the receiver's whole buffer (holes included) must equal the unpacking of
 * the same run into its own poisoned layout, and every receive partition
 * that MPI_Parrived reports is packed and compared on the spot.
 *
 *   basic            8 x 64 MPI_INT, Pready in reverse order, 3 rounds
 *   vector           a vector type with holes on both sides
 *   resized          a type with a negative lower bound and a padded extent
 *   mixed_types      4 x 6 MPI_INT sent, 3 x 2 of a 2-block vector received
 *                    (same signature, partitions cut elements in two)
 *   parts_more_recv  2 x 32 sent, 8 x 8 received; some send partitions
 *                    ready: exactly the covered receive partitions arrive,
 *                    and the send is not complete
 *   parts_fewer_recv 8 x 8 sent, 2 x 32 received, likewise
 *   parts_unaligned  3 x 8 sent, 4 x 6 received, likewise
 *   parrived_after   MPI_Parrived after MPI_Wait: every partition arrived
 *   parrived_poll    the receiver calls nothing but MPI_Parrived until all
 *                    partitions arrived (the sender readies them late)
 *   out_of_order     Pready of a permutation, one partition at a time
 *   many_parts       8192 x 8 MPI_INT sent, 512 x 128 received: more
 *                    partitions than a libfabric provider queues receives
 *   pready_range     Pready_range of two halves, the upper one first
 *   pready_list      Pready_list of a permutation in two calls
 *   zero_count       4 partitions of 0 ints: rounds complete, count 0
 *   startall         both ranks send and receive, two pairs of requests
 *                    started by one MPI_Startall
 *   free_inactive    requests freed before (and after) being started;
 *                    later exchanges on the same tag are unaffected
 *   free_unmatched   a receive freed with no sender: a later MPI_Recv
 *                    with the same source and tag gets its message; a send
 *                    freed unstarted pairs with it, then an exchange
 *   cancel_inactive  MPI_Cancel of inactive partitioned requests, then
 *                    MPI_Wait (empty status), free, and a new exchange
 *   plain_recv       a plain MPI_Irecv posted on the tag of a partitioned
 *                    send stays incomplete while the partitioned pair
 *                    completes; then it gets its own plain message
 *   zero_parts       0 partitions of 8 ints on both sides: rounds complete
 *                    (MPI_Test polled), count 0
 *   pready_twice     MPI_Pready of a partition already ready, MPI_Pready_list
 *                    with a partition twice: MPI_ERR_ARG, nothing marked,
 *                    the exchange still delivers its data
 *   truncate         8 x 8 ints sent, 0 and 4 x 8 received: MPI_ERR_TRUNCATE
 *                    on both sides, nothing hangs; then a full exchange on
 *                    the same tag
 *   cancel_active    MPI_Cancel of started requests before any partition is
 *                    ready: MPI_Wait returns, the status says cancelled; the
 *                    requests start again and deliver
 *   free_active      MPI_Request_free of an active send before every
 *                    partition is ready: MPI_ERR_REQUEST, the request stays
 *                    usable; a second pair to the same peer afterwards
 *   errors_init      wildcards, bad partition counts and counts refused
 *   errors_calls     Pready/Parrived out of range, Pready on an inactive
 *                    or receive request, Parrived on a send request:
 *                    refused, and the exchange still delivers its data
 */

#include <stdint.h>
#include <time.h>

#include "common/qtest.h"

#define TAG 5
#define POISON (-7)
#define OFFSET 64 /* bytes before the buffer pointer: room for a negative lb */

static MPI_Comm ctl; /* a duplicate of MPI_COMM_WORLD for the cases' own messages */
static int rank;
static MPI_Queue queue = MPI_QUEUE_NULL; /* "queued": exchanges go through it */

/* MPI_Start, or its enqueued form */
static int part_start(MPI_Request *req)
{
    return MPI_QUEUE_NULL == queue ? MPI_Start(req) : MPI_Enqueue_start(&queue, req);
}

/* MPI_Wait, or the enqueued wait and the fence that completes it */
static int part_wait(MPI_Request *req, MPI_Status *st)
{
    int rc;

    if (MPI_QUEUE_NULL == queue) {
        return MPI_Wait(req, st);
    }
    rc = MPI_Enqueue_wait(&queue, req, st);
    return MPI_SUCCESS == rc ? MPI_Queue_fence(&queue) : rc;
}

/* One side of an exchange: partitions x count of type. */
struct side {
    int parts;
    int count;
    MPI_Datatype type;
};

enum ready_mode { READY_REVERSE, READY_RANGE, READY_LIST, READY_PERM, READY_STAGED };

static int value(int round, int i)
{
    return round * 100000 + i + 1;
}

static int type_ints(MPI_Datatype type)
{
    int size;

    MPI_Type_size(type, &size);
    return size / (int) sizeof(int);
}

static MPI_Aint type_extent(MPI_Datatype type)
{
    MPI_Aint lb, extent;

    MPI_Type_get_extent(type, &lb, &extent);
    return extent;
}

/* Bytes the buffer of a side spans, from its pointer (lb may be negative:
 * OFFSET covers it). */
static size_t side_bytes(const struct side *s)
{
    MPI_Aint lb, extent, tlb, textent;

    MPI_Type_get_extent(s->type, &lb, &extent);
    MPI_Type_get_true_extent(s->type, &tlb, &textent);
    return (size_t) (extent * (MPI_Aint) s->parts * s->count + textent + 64);
}

static void poison(char *buf, const struct side *s)
{
    for (size_t i = 0; i < (side_bytes(s) + OFFSET) / sizeof(int); ++i) {
        ((int *) (buf - OFFSET))[i] = POISON;
    }
}

static char *side_alloc(const struct side *s)
{
    char *base = malloc(side_bytes(s) + OFFSET);

    QT_CHECK(NULL != base, "out of memory");
    if (NULL == base) {
        exit(1);
    }
    poison(base + OFFSET, s);
    return base + OFFSET;
}

static void side_free(char *buf)
{
    free(buf - OFFSET);
}

/* Lays out ints [first, first + n) of round "round" into buf as n / ints
 * per element elements of type. */
static void fill(char *buf, const struct side *s, int round)
{
    int n = s->parts * s->count * type_ints(s->type);
    int *vals = malloc((n + 1) * sizeof(int)), pos = 0;

    for (int i = 0; i < n; ++i) {
        vals[i] = value(round, i);
    }
    MPI_Unpack(vals, n * (int) sizeof(int), &pos, buf, s->parts * s->count, s->type, MPI_COMM_SELF);
    free(vals);
}

/* Checks receive partition p (or the whole buffer if p < 0) against the
 * ints of round "round"; returns the number of wrong ints. */
static int check(const char *buf, const struct side *s, int round, int p, const char *what)
{
    int per = type_ints(s->type), bad = 0;
    int first = p < 0 ? 0 : p * s->count;
    int elems = p < 0 ? s->parts * s->count : s->count;
    int n = elems * per, pos = 0;
    int *got = malloc((n + 1) * sizeof(int));

    MPI_Pack(buf + (MPI_Aint) first * type_extent(s->type), elems, s->type, got,
             (n + 1) * (int) sizeof(int), &pos, MPI_COMM_SELF);
    for (int i = 0; i < n; ++i) {
        int want = value(round, first * per + i);
        if (want != got[i] && 0 == bad++) {
            QT_CHECK(0, "%s round %d partition %d: int %d is %d, expected %d", what, round, p, i,
                     got[i], want);
        }
    }
    free(got);
    return bad;
}

/* The holes of the receive layout must stay untouched: unpack the expected
 * ints into a poisoned copy and compare every byte. */
static void check_holes(const char *buf, const struct side *s, int round)
{
    size_t bytes = side_bytes(s);
    char *want = side_alloc(s);

    fill(want, s, round);
    if (0 != memcmp(want - OFFSET, buf - OFFSET, bytes + OFFSET)) {
        QT_CHECK(0, "round %d: the receive buffer differs outside the data (holes written)",
                 round);
    }
    side_free(want);
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Polls MPI_Parrived(p) until it says arrived; returns 0 on an error. */
static int wait_arrived(MPI_Request req, int p)
{
    int flag = 0, rc;

    while (!flag) {
        rc = MPI_Parrived(req, p, &flag);
        if (MPI_SUCCESS != rc) {
            QT_CHECK(0, "MPI_Parrived(%d) returned %d", p, rc);
            return 0;
        }
    }
    return 1;
}

/* Polls MPI_Parrived(p) for a while: it must keep saying not arrived. */
static void check_not_arrived(MPI_Request req, int p)
{
    double end = now() + 0.2;

    while (now() < end) {
        int flag = 0;
        QT_OK(MPI_Parrived(req, p, &flag));
        if (flag) {
            QT_CHECK(0, "MPI_Parrived(%d) says arrived although its data was not all sent", p);
            return;
        }
    }
}

static void ready(MPI_Request req, int lo, int hi, enum ready_mode mode)
{
    int n = hi - lo + 1;
    int list[n > 0 ? n : 1];

    switch (mode) {
    case READY_REVERSE:
        for (int p = hi; p >= lo; --p) {
            QT_OK(MPI_Pready(p, req));
        }
        break;
    case READY_RANGE:
        /* Upper half first. */
        if (n > 1) {
            QT_OK(MPI_Pready_range(lo + n / 2, hi, req));
            QT_OK(MPI_Pready_range(lo, lo + n / 2 - 1, req));
        } else {
            QT_OK(MPI_Pready_range(lo, hi, req));
        }
        break;
    case READY_LIST:
    case READY_PERM:
    case READY_STAGED:
        /* Odd partitions downwards, then even ones upwards. */
        for (int i = 0, p = hi; p >= lo; --p) {
            if (1 == (p - lo) % 2) {
                list[i++] = p;
            }
        }
        for (int i = n / 2, p = lo; p <= hi; ++p) {
            if (0 == (p - lo) % 2) {
                list[i++] = p;
            }
        }
        if (READY_LIST == mode) {
            QT_OK(MPI_Pready_list(n / 2, list, req));
            QT_OK(MPI_Pready_list(n - n / 2, list + n / 2, req));
        } else {
            for (int i = 0; i < n; ++i) {
                QT_OK(MPI_Pready(list[i], req));
            }
        }
        break;
    }
}

/* Receive partitions whose ints all lie in the first "ints" ints sent. */
static int covered(const struct side *r, int p, long ints)
{
    return (long) (p + 1) * r->count * type_ints(r->type) <= ints;
}

/* Send partitions readied before the receiver checks MPI_Parrived: fewer
 * than half, so that a receive partition can be partly covered. */
static int first_stage(const struct side *s)
{
    return s->parts > 2 ? (s->parts - 1) / 2 : 1;
}

/* A full exchange rank 0 -> rank 1 over "rounds" rounds. */
/* rank 0 inits a partitioned send to rank 1, rank 1 the receive from rank 0,
 * each with its own side of the exchange */
static void pair_init(char *buf, const struct side *s, const struct side *r, MPI_Request *req)
{
    if (0 == rank) {
        QT_OK(MPI_Psend_init(buf, s->parts, s->count, s->type, 1, TAG, MPI_COMM_WORLD,
                             MPI_INFO_NULL, req));
    } else {
        QT_OK(MPI_Precv_init(buf, r->parts, r->count, r->type, 0, TAG, MPI_COMM_WORLD,
                             MPI_INFO_NULL, req));
    }
}

static void exchange(const struct side *s, const struct side *r, int rounds, enum ready_mode mode)
{
    MPI_Request req = MPI_REQUEST_NULL;
    char *buf;
    int total = s->parts * s->count * type_ints(s->type);

    QT_CHECK(total == r->parts * r->count * type_ints(r->type), "case error: totals differ");
    buf = side_alloc(0 == rank ? s : r);
    QT_STEP("init");
    pair_init(buf, s, r, &req);
    for (int round = 0; round < rounds; ++round) {
        MPI_Status st;

        if (0 == rank) {
            fill(buf, s, round);
            QT_STEP("sender: start");
            QT_OK(part_start(&req));
            if (READY_STAGED == mode) {
                int half = first_stage(s);
                QT_STEP("sender: ready the first stage");
                ready(req, 0, half - 1, READY_PERM);
                MPI_Send(&round, 1, MPI_INT, 1, 1, ctl);
                QT_STEP("sender: wait for the receiver's checks of the first stage");
                MPI_Recv(NULL, 0, MPI_INT, 1, 2, ctl, MPI_STATUS_IGNORE);
                QT_STEP("sender: test before every partition is ready");
                {
                    int flag = -1;
                    QT_OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
                    QT_CHECK(0 == flag, "round %d: the send completed before every MPI_Pready",
                             round);
                }
                QT_STEP("sender: ready the second stage");
                ready(req, half, s->parts - 1, READY_PERM);
            } else {
                QT_STEP("sender: ready");
                ready(req, 0, s->parts - 1, mode);
            }
            QT_STEP("sender: wait");
            QT_OK(part_wait(&req, &st));
        } else {
            int bad = 0;

            /* The buffer is ours again after MPI_Wait: poison it. */
            poison(buf, r);
            QT_STEP("receiver: start");
            QT_OK(part_start(&req));
            if (READY_STAGED == mode) {
                long sent_ints = (long) first_stage(s) * s->count * type_ints(s->type);
                int sender_round = -1;
                /* the whole message: a truncated receive breaks the later
                 * receives of pml cm over libfabric's tcp provider
                 * (tests/stock/ofi_truncation.c) */
                MPI_Recv(&sender_round, 1, MPI_INT, 0, 1, ctl, MPI_STATUS_IGNORE);
                QT_CHECK(round == sender_round, "the sender is in round %d, the receiver in %d",
                         sender_round, round);
                QT_STEP("receiver: partitions covered by the first stage arrive");
                for (int p = 0; p < r->parts; ++p) {
                    if (covered(r, p, sent_ints)) {
                        if (wait_arrived(req, p)) {
                            bad += check(buf, r, round, p, "first stage");
                        }
                    }
                }
                QT_STEP("receiver: partitions not covered by the first stage do not arrive");
                for (int p = 0; p < r->parts; ++p) {
                    if (!covered(r, p, sent_ints)) {
                        check_not_arrived(req, p);
                    }
                }
                MPI_Send(NULL, 0, MPI_INT, 0, 2, ctl);
            }
            QT_STEP("receiver: parrived polling");
            for (int p = 0; p < r->parts; ++p) {
                if (wait_arrived(req, p) && 0 == bad) {
                    bad += check(buf, r, round, p, "arrived");
                }
            }
            QT_STEP("receiver: wait");
            QT_OK(part_wait(&req, &st));
            if (0 == bad) {
                int count = -1;
                bad += check(buf, r, round, -1, "after MPI_Wait");
                check_holes(buf, r, round);
                MPI_Get_count(&st, MPI_INT, &count);
                QT_CHECK(total == count, "status count %d ints, expected %d", count, total);
                QT_CHECK(0 == st.MPI_SOURCE && TAG == st.MPI_TAG,
                         "status source %d tag %d, expected 0 and %d", st.MPI_SOURCE, st.MPI_TAG,
                         TAG);
            }
        }
    }
    QT_STEP("free");
    QT_OK(MPI_Request_free(&req));
    QT_CHECK(MPI_REQUEST_NULL == req, "MPI_Request_free did not set MPI_REQUEST_NULL");
    side_free(buf);
}

static void case_basic(void)
{
    struct side s = {8, 64, MPI_INT};
    exchange(&s, &s, 3, READY_REVERSE);
}

static void case_vector(void)
{
    MPI_Datatype vec;
    /* 2 ints 4 apart: size 8 bytes, extent 20 bytes. */
    MPI_Type_vector(2, 1, 4, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    struct side s = {4, 3, vec};
    exchange(&s, &s, 2, READY_REVERSE);
    MPI_Type_free(&vec);
}

static void case_resized(void)
{
    MPI_Datatype cont, res;
    /* 2 ints at the pointer, lb 4 bytes before it, extent 16 bytes. */
    MPI_Type_contiguous(2, MPI_INT, &cont);
    MPI_Type_create_resized(cont, -4, 16, &res);
    MPI_Type_commit(&res);
    struct side s = {4, 5, res};
    exchange(&s, &s, 2, READY_REVERSE);
    MPI_Type_free(&res);
    MPI_Type_free(&cont);
}

static void case_mixed_types(void)
{
    MPI_Datatype vec;
    /* 2 blocks of 2 ints 3 apart: 4 ints in an extent of 5 ints. */
    MPI_Type_vector(2, 2, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    struct side s = {4, 6, MPI_INT}, r = {3, 2, vec};
    exchange(&s, &r, 2, READY_STAGED);
    MPI_Type_free(&vec);
}

static void case_parts(int sp, int sc, int rp, int rc)
{
    struct side s = {sp, sc, MPI_INT}, r = {rp, rc, MPI_INT};
    exchange(&s, &r, 2, READY_STAGED);
}

static void case_out_of_order(void)
{
    struct side s = {16, 32, MPI_INT};
    exchange(&s, &s, 3, READY_PERM);
}

static void case_many_parts(void)
{
    struct side s = {8192, 8, MPI_INT}, r = {512, 128, MPI_INT};
    exchange(&s, &r, 2, READY_REVERSE);
}

static void case_pready_range(void)
{
    struct side s = {8, 16, MPI_INT};
    exchange(&s, &s, 3, READY_RANGE);
}

static void case_pready_list(void)
{
    struct side s = {8, 16, MPI_INT};
    exchange(&s, &s, 3, READY_LIST);
}

static void case_zero_count(void)
{
    struct side s = {4, 0, MPI_INT};
    exchange(&s, &s, 3, READY_REVERSE);
}

static void case_parrived_after(void)
{
    struct side s = {4, 16, MPI_INT};
    MPI_Request req;
    char *buf = side_alloc(&s);

    QT_STEP("init");
    pair_init(buf, &s, &s, &req);
    for (int round = 0; round < 2; ++round) {
        QT_STEP("start, ready, wait");
        if (0 == rank) {
            fill(buf, &s, round);
        }
        QT_OK(MPI_Start(&req));
        if (0 == rank) {
            ready(req, 0, s.parts - 1, READY_REVERSE);
        }
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        if (1 == rank) {
            QT_STEP("parrived after completion");
            check(buf, &s, round, -1, "after MPI_Wait");
            for (int p = 0; p < s.parts; ++p) {
                int flag = 0;
                QT_OK(MPI_Parrived(req, p, &flag));
                QT_CHECK(flag, "round %d: MPI_Parrived(%d) after MPI_Wait says not arrived",
                         round, p);
            }
        }
    }
    QT_OK(MPI_Request_free(&req));
    side_free(buf);
}

static void case_parrived_poll(void)
{
    struct side s = {8, 4096, MPI_INT};
    MPI_Request req;
    char *buf = side_alloc(&s);

    QT_STEP("init");
    if (0 == rank) {
        QT_OK(MPI_Psend_init(buf, s.parts, s.count, s.type, 1, TAG, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &req));
        fill(buf, &s, 0);
        QT_OK(MPI_Start(&req));
        /* The receiver polls meanwhile, with nothing ready yet. */
        usleep(200000);
        QT_STEP("sender: ready and wait");
        ready(req, 0, s.parts - 1, READY_REVERSE);
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        int flags[8] = {0}, left = s.parts;

        QT_OK(MPI_Precv_init(buf, s.parts, s.count, s.type, 0, TAG, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &req));
        QT_OK(MPI_Start(&req));
        QT_STEP("receiver: only MPI_Parrived until every partition arrived");
        while (left > 0) {
            for (int p = 0; p < s.parts; ++p) {
                if (!flags[p]) {
                    int rc = MPI_Parrived(req, p, &flags[p]);
                    QT_CHECK(MPI_SUCCESS == rc, "MPI_Parrived returned %d", rc);
                    if (MPI_SUCCESS != rc) {
                        left = 0;
                        break;
                    }
                    if (flags[p]) {
                        check(buf, &s, 0, p, "arrived");
                        left--;
                    }
                }
            }
        }
        QT_STEP("receiver: wait");
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    }
    QT_OK(MPI_Request_free(&req));
    side_free(buf);
}

static void case_startall(void)
{
    struct side s = {4, 8, MPI_INT};
    MPI_Request reqs[4];
    char *bufs[4];
    int peer = 1 - rank;

    /* reqs[0..1]: sends on tags 1 and 2, reqs[2..3]: receives on tags 1
     * and 2, all in one MPI_Startall. */
    QT_STEP("init");
    for (int i = 0; i < 4; ++i) {
        bufs[i] = side_alloc(&s);
    }
    for (int i = 0; i < 2; ++i) {
        QT_OK(MPI_Psend_init(bufs[i], s.parts, s.count, s.type, peer, 1 + i, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &reqs[i]));
        QT_OK(MPI_Precv_init(bufs[2 + i], s.parts, s.count, s.type, peer, 1 + i, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &reqs[2 + i]));
    }
    for (int round = 0; round < 3; ++round) {
        /* Sender rank and tag go into the round number. */
        fill(bufs[0], &s, 10 * round + 2 * rank + 0);
        fill(bufs[1], &s, 10 * round + 2 * rank + 1);
        QT_STEP("startall");
        QT_OK(MPI_Startall(4, reqs));
        QT_STEP("ready");
        for (int i = 0; i < 2; ++i) {
            ready(reqs[i], 0, s.parts - 1, READY_REVERSE);
        }
        QT_STEP("waitall");
        QT_OK(MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE));
        for (int i = 0; i < 2; ++i) {
            check(bufs[2 + i], &s, 10 * round + 2 * peer + i, -1, "after MPI_Waitall");
        }
    }
    QT_STEP("free");
    for (int i = 0; i < 4; ++i) {
        QT_OK(MPI_Request_free(&reqs[i]));
        side_free(bufs[i]);
    }
}

/* A plain message on the partitioned tag: it must reach MPI_Recv. */
static void plain_message(int payload)
{
    if (0 == rank) {
        QT_OK(MPI_Send(&payload, 1, MPI_INT, 1, TAG, MPI_COMM_WORLD));
    } else {
        int got = -1;
        QT_OK(MPI_Recv(&got, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        QT_CHECK(payload == got, "MPI_Recv on the partitioned tag got %d, expected %d", got,
                 payload);
    }
}

static void case_free_inactive(void)
{
    struct side s = {4, 8, MPI_INT};
    MPI_Request req;
    char *buf = side_alloc(&s);

    QT_STEP("init and free without start");
    for (int i = 0; i < 3; ++i) {
        pair_init(buf, &s, &s, &req);
        QT_OK(MPI_Request_free(&req));
        QT_CHECK(MPI_REQUEST_NULL == req, "MPI_Request_free did not set MPI_REQUEST_NULL");
    }
    QT_STEP("plain message after the freed requests");
    plain_message(4242);
    QT_STEP("exchange after the freed requests (then freed after use)");
    exchange(&s, &s, 2, READY_REVERSE);
    exchange(&s, &s, 1, READY_REVERSE);
    QT_STEP("plain message after the used requests");
    plain_message(4343);
    side_free(buf);
}

static void case_free_unmatched(void)
{
    struct side s = {4, 8, MPI_INT};
    MPI_Request req;
    char *buf = side_alloc(&s);

    if (1 == rank) {
        QT_STEP("receive init and free, no sender");
        QT_OK(MPI_Precv_init(buf, s.parts, s.count, s.type, 0, TAG, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &req));
        QT_OK(MPI_Request_free(&req));
        /* Give the library time to make any progress it wants. */
        for (int i = 0; i < 1000; ++i) {
            int flag;
            MPI_Iprobe(MPI_ANY_SOURCE, 999, ctl, &flag, MPI_STATUS_IGNORE);
        }
    }
    MPI_Barrier(ctl);
    QT_STEP("plain message on the freed receive's source and tag");
    plain_message(777);
    if (0 == rank) {
        /* Partitioned requests pair in the order of their initialization,
         * freed ones too (free_inactive): the freed receive pairs with the
         * next send, one freed unstarted here. */
        QT_STEP("sender: the send that pairs with the freed receive, freed");
        QT_OK(MPI_Psend_init(buf, s.parts, s.count, s.type, 1, TAG, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &req));
        QT_OK(MPI_Request_free(&req));
    }
    QT_STEP("exchange afterwards");
    exchange(&s, &s, 1, READY_REVERSE);
    side_free(buf);
}

static void case_cancel_inactive(void)
{
    struct side s = {4, 8, MPI_INT};
    MPI_Request req;
    MPI_Status st;
    char *buf = side_alloc(&s);
    int flag = -1;

    QT_STEP("init, cancel while inactive");
    pair_init(buf, &s, &s, &req);
    QT_OK(MPI_Cancel(&req));
    QT_STEP("wait on the cancelled inactive request");
    st.MPI_SOURCE = 12345;
    QT_OK(MPI_Wait(&req, &st));
    QT_CHECK(MPI_REQUEST_NULL != req, "MPI_Wait freed an inactive persistent request");
    QT_CHECK(MPI_ANY_SOURCE == st.MPI_SOURCE && MPI_ANY_TAG == st.MPI_TAG,
             "inactive request: status source %d tag %d, expected the empty status",
             st.MPI_SOURCE, st.MPI_TAG);
    MPI_Test_cancelled(&st, &flag);
    QT_CHECK(0 == flag, "the empty status says cancelled");
    QT_STEP("test on the cancelled inactive request");
    flag = 0;
    QT_OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
    QT_CHECK(flag, "MPI_Test of an inactive request says not complete");
    QT_STEP("free the cancelled inactive request");
    QT_OK(MPI_Request_free(&req));
    QT_STEP("plain message and exchange afterwards");
    plain_message(888);
    exchange(&s, &s, 2, READY_REVERSE);
    side_free(buf);
}

/* A plain receive on the partitioned tag stays out of the partitioned
 * traffic: posted first, then the pair made and completed; the receive
 * must not complete until its own plain message comes. */
static void case_plain_recv(void)
{
    struct side s = {8, 16, MPI_INT};
    char *buf = side_alloc(&s);
    MPI_Request req = MPI_REQUEST_NULL, plain = MPI_REQUEST_NULL;
    int got[64], flag = 0;

    for (int i = 0; i < 64; ++i) {
        got[i] = POISON;
    }
    if (1 == rank) {
        QT_STEP("receiver: plain MPI_Irecv on the partitioned tag");
        QT_OK(MPI_Irecv(got, 64, MPI_INT, 0, TAG, MPI_COMM_WORLD, &plain));
    }
    MPI_Barrier(ctl);
    /* part/persist starts the first round's receives at the pairing,
     * before MPI_Start: the buffer is poisoned before the init */
    poison(buf, &s);
    QT_STEP("init of the pair");
    pair_init(buf, &s, &s, &req);
    if (0 == rank) {
        fill(buf, &s, 0);
        QT_STEP("sender: start, ready, wait");
        QT_OK(MPI_Start(&req));
        ready(req, 0, s.parts - 1, READY_REVERSE);
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        QT_STEP("receiver: the plain receive before the partitioned start");
        for (int i = 0; i < 1000 && !flag; ++i) {
            QT_OK(MPI_Test(&plain, &flag, MPI_STATUS_IGNORE));
        }
        QT_CHECK(0 == flag, "the plain MPI_Irecv completed with partitioned traffic "
                 "(first ints %d %d %d %d)", got[0], got[1], got[2], got[3]);
        QT_STEP("receiver: partitioned start and wait (the plain receive posted)");
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        check(buf, &s, 0, -1, "after MPI_Wait");
        QT_STEP("receiver: the plain receive after the partitioned pair");
        if (!flag) {
            QT_OK(MPI_Test(&plain, &flag, MPI_STATUS_IGNORE));
            QT_CHECK(0 == flag, "the plain MPI_Irecv completed with partitioned traffic");
        }
    }
    MPI_Barrier(ctl);
    QT_STEP("the plain message");
    if (0 == rank) {
        int v = 4711;
        QT_OK(MPI_Send(&v, 1, MPI_INT, 1, TAG, MPI_COMM_WORLD));
    } else if (!flag) {
        MPI_Status st;
        QT_OK(MPI_Wait(&plain, &st));
        QT_CHECK(4711 == got[0], "the plain receive got %d, expected 4711", got[0]);
    }
    QT_OK(MPI_Request_free(&req));
    side_free(buf);
}

static void case_zero_parts(void)
{
    struct side s = {0, 8, MPI_INT};
    MPI_Request req = MPI_REQUEST_NULL;
    char *buf = side_alloc(&s);

    QT_STEP("init with 0 partitions");
    pair_init(buf, &s, &s, &req);
    for (int round = 0; round < 3; ++round) {
        MPI_Status st;
        int flag = 0, count = -1;

        QT_STEP("start with 0 partitions");
        QT_OK(part_start(&req));
        QT_STEP("MPI_Test until complete, 0 partitions");
        if (MPI_QUEUE_NULL == queue) {
            while (!flag) {
                QT_OK(MPI_Test(&req, &flag, &st));
            }
        } else {
            QT_OK(part_wait(&req, &st));
        }
        MPI_Get_count(&st, MPI_INT, &count);
        QT_CHECK(0 == count, "round %d: status count %d, expected 0", round, count);
    }
    QT_OK(MPI_Request_free(&req));
    side_free(buf);
}

static void case_pready_twice(void)
{
    struct side s = {4, 8, MPI_INT};
    MPI_Request req = MPI_REQUEST_NULL;
    char *buf = side_alloc(&s);
    int dup[3] = {2, 3, 2}, one = 1, first_ready[2] = {0, 1};

    QT_STEP("init");
    pair_init(buf, &s, &s, &req);
    if (0 == rank) {
        fill(buf, &s, 0);
        QT_OK(MPI_Start(&req));
        QT_STEP("MPI_Pready_list with a partition twice");
        QT_CHECK_RC(MPI_Pready_list(3, dup, req), MPI_ERR_ARG);
        QT_STEP("MPI_Pready twice");
        QT_OK(MPI_Pready(1, req));
        QT_CHECK_RC(MPI_Pready(1, req), MPI_ERR_ARG);
        QT_CHECK_RC(MPI_Pready_list(1, &one, req), MPI_ERR_ARG);
        /* refused as a whole: partition 0, before the ready one in the
         * list, must stay unmarked (MPI_Pready(0) below) */
        QT_CHECK_RC(MPI_Pready_list(2, first_ready, req), MPI_ERR_ARG);
        QT_CHECK_RC(MPI_Pready_range(0, 1, req), MPI_ERR_ARG);
        QT_STEP("sender: test before every partition is ready");
        {
            int flag = -1;
            for (int i = 0; i < 100; ++i) {
                QT_OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
            }
            QT_CHECK(0 == flag, "the send completed with partitions 0, 2, 3 not ready");
        }
        QT_STEP("sender: ready the others, wait");
        QT_OK(MPI_Pready(0, req));
        QT_OK(MPI_Pready_range(2, 3, req));
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        poison(buf, &s);
        QT_OK(MPI_Start(&req));
        QT_STEP("receiver: wait");
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        check(buf, &s, 0, -1, "after MPI_Wait");
    }
    QT_OK(MPI_Request_free(&req));
    side_free(buf);
}

static void case_truncate(void)
{
    struct side s = {8, 8, MPI_INT}, r0 = {0, 8, MPI_INT}, r4 = {4, 8, MPI_INT};
    const struct side *rs[2] = {&r0, &r4};

    for (int k = 0; k < 2; ++k) {
        MPI_Request req = MPI_REQUEST_NULL;
        MPI_Status st;
        char *buf = side_alloc(0 == rank ? &s : rs[k]);

        QT_STEP("init: the receive smaller than the send");
        pair_init(buf, &s, rs[k], &req);
        if (0 == rank) {
            fill(buf, &s, 0);
            QT_STEP("sender: start, ready, wait (receive too small)");
            QT_OK(MPI_Start(&req));
            ready(req, 0, s.parts - 1, READY_REVERSE);
            QT_CHECK_RC(MPI_Wait(&req, &st), MPI_ERR_TRUNCATE);
        } else {
            QT_STEP("receiver: start, wait (receive too small)");
            QT_OK(MPI_Start(&req));
            QT_CHECK_RC(MPI_Wait(&req, &st), MPI_ERR_TRUNCATE);
        }
        /* Open MPI releases a request that completed in error in the wait
         * that reports it (ompi_errhandler_request_invoke) */
        if (MPI_REQUEST_NULL != req) {
            QT_OK(MPI_Request_free(&req));
        }
        side_free(buf);
    }
    QT_STEP("full exchange afterwards");
    exchange(&s, &s, 1, READY_REVERSE);
}

static void case_cancel_active(void)
{
    struct side s = {4, 8, MPI_INT};
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status st;
    char *buf = side_alloc(&s);
    int flag = 0;

    QT_STEP("init");
    pair_init(buf, &s, &s, &req);
    /* both sides paired before the cancel */
    MPI_Barrier(ctl);
    for (int i = 0; i < 100; ++i) {
        MPI_Iprobe(MPI_ANY_SOURCE, 999, ctl, &flag, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(ctl);
    QT_STEP("start, cancel before any partition is ready");
    QT_OK(MPI_Start(&req));
    QT_OK(MPI_Cancel(&req));
    QT_STEP("MPI_Wait on the cancelled active request");
    QT_OK(MPI_Wait(&req, &st));
    flag = 0;
    MPI_Test_cancelled(&st, &flag);
    QT_CHECK(flag, "the status of the cancelled request does not say cancelled");
    MPI_Barrier(ctl);
    QT_STEP("the cancelled requests start again and deliver");
    if (0 == rank) {
        fill(buf, &s, 1);
        QT_OK(MPI_Start(&req));
        ready(req, 0, s.parts - 1, READY_REVERSE);
        QT_OK(MPI_Wait(&req, &st));
    } else {
        poison(buf, &s);
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Wait(&req, &st));
        check(buf, &s, 1, -1, "after the cancelled round");
    }
    QT_OK(MPI_Request_free(&req));
    side_free(buf);
}

static void case_free_active(void)
{
    struct side s = {4, 8, MPI_INT};
    MPI_Request req = MPI_REQUEST_NULL;
    char *buf = side_alloc(&s);

    QT_STEP("init");
    pair_init(buf, &s, &s, &req);
    if (0 == rank) {
        fill(buf, &s, 0);
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Pready(0, req));
        QT_STEP("MPI_Request_free of the active send");
        QT_CHECK_RC(MPI_Request_free(&req), MPI_ERR_REQUEST);
        QT_CHECK(MPI_REQUEST_NULL != req, "the refused free set MPI_REQUEST_NULL");
        QT_STEP("the send stays usable: ready the others, wait");
        QT_OK(MPI_Pready_range(1, s.parts - 1, req));
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        poison(buf, &s);
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        check(buf, &s, 0, -1, "after MPI_Wait");
    }
    QT_OK(MPI_Request_free(&req));
    side_free(buf);
    QT_STEP("a second pair to the same peer");
    exchange(&s, &s, 2, READY_REVERSE);
}

static void case_errors_init(void)
{
    int buf[16];
    MPI_Request req;
    int size;

    MPI_Comm_size(MPI_COMM_WORLD, &size);
#define REFUSED(call, cls, what)                                                     \
    do {                                                                             \
        req = MPI_REQUEST_NULL;                                                      \
        QT_STEP(what);                                                               \
        QT_CHECK_RC(call, cls);                                                      \
        QT_CHECK(MPI_REQUEST_NULL == req, "%s: a request was made", what);           \
    } while (0)
    REFUSED(MPI_Psend_init(buf, 2, 8, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &req), MPI_ERR_RANK, "psend_init to MPI_ANY_SOURCE");
    REFUSED(MPI_Psend_init(buf, 2, 8, MPI_INT, 1 - rank, MPI_ANY_TAG, MPI_COMM_WORLD,
                           MPI_INFO_NULL, &req), MPI_ERR_TAG, "psend_init with MPI_ANY_TAG");
    REFUSED(MPI_Precv_init(buf, 2, 8, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &req), MPI_ERR_RANK, "precv_init from MPI_ANY_SOURCE");
    REFUSED(MPI_Precv_init(buf, 2, 8, MPI_INT, 1 - rank, MPI_ANY_TAG, MPI_COMM_WORLD,
                           MPI_INFO_NULL, &req), MPI_ERR_TAG, "precv_init with MPI_ANY_TAG");
    REFUSED(MPI_Psend_init(buf, -1, 8, MPI_INT, 1 - rank, TAG, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &req), MPI_ERR_ARG, "psend_init with -1 partitions");
    REFUSED(MPI_Precv_init(buf, -1, 8, MPI_INT, 1 - rank, TAG, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &req), MPI_ERR_ARG, "precv_init with -1 partitions");
    REFUSED(MPI_Psend_init(buf, 2, -1, MPI_INT, 1 - rank, TAG, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &req), MPI_ERR_COUNT, "psend_init with count -1");
    REFUSED(MPI_Precv_init(buf, 2, -1, MPI_INT, 1 - rank, TAG, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &req), MPI_ERR_COUNT, "precv_init with count -1");
    REFUSED(MPI_Psend_init(buf, 2, 8, MPI_INT, size, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &req),
            MPI_ERR_RANK, "psend_init to a rank out of range");
    REFUSED(MPI_Precv_init(buf, 2, 8, MPI_INT, -5, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &req),
            MPI_ERR_RANK, "precv_init from rank -5");
    REFUSED(MPI_Psend_init(buf, 2, 8, MPI_INT, 1 - rank, -3, MPI_COMM_WORLD, MPI_INFO_NULL, &req),
            MPI_ERR_TAG, "psend_init with tag -3");
    REFUSED(MPI_Psend_init(buf, 2, 8, MPI_DATATYPE_NULL, 1 - rank, TAG, MPI_COMM_WORLD,
                           MPI_INFO_NULL, &req), MPI_ERR_TYPE, "psend_init of MPI_DATATYPE_NULL");
    REFUSED(MPI_Precv_init(buf, 2, 8, MPI_INT, 1 - rank, TAG, MPI_COMM_NULL, MPI_INFO_NULL, &req),
            MPI_ERR_COMM, "precv_init on MPI_COMM_NULL");
#undef REFUSED
    /* Nothing may be left behind: an exchange on the same tag works. */
    struct side s = {4, 8, MPI_INT};
    QT_STEP("exchange after the refused calls");
    exchange(&s, &s, 1, READY_REVERSE);
}

static void case_errors_calls(void)
{
    struct side s = {4, 8, MPI_INT};
    MPI_Request req;
    char *buf = side_alloc(&s);
    int flag = 0, list[2] = {1, 4};

    QT_STEP("init");
    pair_init(buf, &s, &s, &req);
    /* Both have seen each other's init before the first start. */
    MPI_Barrier(ctl);
    for (int i = 0; i < 100; ++i) {
        MPI_Iprobe(MPI_ANY_SOURCE, 999, ctl, &flag, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(ctl);
    if (0 == rank) {
        QT_STEP("pready on the inactive send request");
        QT_CHECK_RC(MPI_Pready(0, req), MPI_ERR_REQUEST);
        QT_CHECK_RC(MPI_Pready_range(0, 1, req), MPI_ERR_REQUEST);
        fill(buf, &s, 0);
        QT_OK(MPI_Start(&req));
        QT_STEP("pready out of range");
        QT_CHECK_RC(MPI_Pready(-1, req), MPI_ERR_ARG);
        QT_CHECK_RC(MPI_Pready(s.parts, req), MPI_ERR_ARG);
        QT_CHECK_RC(MPI_Pready_range(2, 1, req), MPI_ERR_ARG);
        QT_CHECK_RC(MPI_Pready_range(0, s.parts, req), MPI_ERR_ARG);
        QT_CHECK_RC(MPI_Pready_list(2, list, req), MPI_ERR_ARG);
        QT_STEP("parrived on a send request");
        QT_CHECK_RC(MPI_Parrived(req, 0, &flag), MPI_ERR_REQUEST);
        QT_STEP("sender: ready all and wait");
        ready(req, 0, s.parts - 1, READY_REVERSE);
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        QT_STEP("pready on a receive request");
        QT_CHECK_RC(MPI_Pready(0, req), MPI_ERR_REQUEST);
        QT_OK(MPI_Start(&req));
        QT_CHECK_RC(MPI_Pready(0, req), MPI_ERR_REQUEST);
        QT_STEP("parrived out of range");
        QT_CHECK_RC(MPI_Parrived(req, -1, &flag), MPI_ERR_ARG);
        QT_CHECK_RC(MPI_Parrived(req, s.parts, &flag), MPI_ERR_ARG);
        QT_STEP("receiver: wait");
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        check(buf, &s, 0, -1, "after MPI_Wait");
    }
    QT_OK(MPI_Request_free(&req));
    side_free(buf);
}

static void case_parts_more_recv(void)
{
    case_parts(2, 32, 8, 8);
}

static void case_parts_fewer_recv(void)
{
    case_parts(8, 8, 2, 32);
}

static void case_parts_unaligned(void)
{
    case_parts(3, 8, 4, 6);
}

static const qt_case_t cases[] = {
    {"basic", case_basic},
    {"vector", case_vector},
    {"resized", case_resized},
    {"mixed_types", case_mixed_types},
    {"parts_more_recv", case_parts_more_recv},
    {"parts_fewer_recv", case_parts_fewer_recv},
    {"parts_unaligned", case_parts_unaligned},
    {"parrived_after", case_parrived_after},
    {"parrived_poll", case_parrived_poll},
    {"out_of_order", case_out_of_order},
    {"many_parts", case_many_parts},
    {"pready_range", case_pready_range},
    {"pready_list", case_pready_list},
    {"zero_count", case_zero_count},
    {"startall", case_startall},
    {"free_inactive", case_free_inactive},
    {"free_unmatched", case_free_unmatched},
    {"cancel_inactive", case_cancel_inactive},
    {"plain_recv", case_plain_recv},
    {"zero_parts", case_zero_parts},
    {"pready_twice", case_pready_twice},
    {"truncate", case_truncate},
    {"cancel_active", case_cancel_active},
    {"free_active", case_free_active},
    {"errors_init", case_errors_init},
    {"errors_calls", case_errors_calls},
};

int main(int argc, char **argv)
{
    int size, queued = 0;
    const char *which;

    qt_init(&argc, &argv);
    qt_name_crashes();
    which = qt_case_list(argc, argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (2 != size) {
        if (0 == rank) {
            printf("SKIP: part_correct needs exactly 2 ranks\n");
        }
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &ctl);
    MPI_Comm_set_errhandler(ctl, MPI_ERRORS_RETURN);
    for (int i = 1; i < argc; ++i) {
        queued |= 0 == strcmp(argv[i], "queued");
    }
    if (queued) {
        QT_OK(MPI_Queue_init(&queue, MPI_QUEUE_TYPE_DEFAULT, NULL));
    }
    qt_run_cases(which, cases, sizeof(cases) / sizeof(cases[0]));
    if (MPI_QUEUE_NULL != queue) {
        QT_OK(MPI_Queue_free(&queue));
    }
    MPI_Comm_free(&ctl);
    return qt_finalize();
}
