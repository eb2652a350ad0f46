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
 * What a channel must keep of point-to-point semantics, whichever channel
 * the pair got (tests.list runs it per channel, with single copy off, and
 * with fewer shared-memory slots than pairs): sizes from zero to many
 * chunks and repeated starts, non-contiguous datatypes on either side,
 * truncation reported in the receive's status with nothing written past
 * the buffer (and, on sm, ucx and ofi, the count and data the PMLs leave
 * open: argv[1] "chan-sm", "chan-ucx" or "chan-ofi"), synchronous sends
 * that complete only once the receive has started, a send freed before
 * its receive starts, small sends that run ahead of their receives (except
 * where each message is granted), a cancelled receive (on ofi a started
 * receive cannot be cancelled: it completes with the message), and 1000
 * pairs twice over with bounded memory.  Ranks 0 (sender) and 1 (receiver).
 */

#include "common/qtest.h"

#define PAIRS 1000

static int rank;
static int chan_sm;  /* argv[1] "chan-sm", "chan-ucx" or "chan-ofi": the pairs run on match/sm,
                      * match/ucx or match/ofi */
static int chan_ofi; /* argv[1] "chan-ofi": a started receive cannot be cancelled */

static unsigned char pattern(size_t i, int iter)
{
    return (unsigned char) ((i * 7 + (size_t) iter * 13 + (i >> 12)) & 0xff);
}

static void sizes(void)
{
    static const size_t size[] = {0, 1, 56, 57, 8192, 8193, 100000, 1 << 20, (4 << 20) + 3};
    unsigned char *buf = malloc((4 << 20) + 3);

    QT_STEP("sizes from 0 bytes to many chunks, three starts each");
    for (size_t s = 0; s < sizeof(size) / sizeof(size[0]); ++s) {
        MPI_Request req;
        MPI_Status st;
        int count = -1;

        if (0 == rank) {
            MPI_Send_init(buf, (int) size[s], MPI_BYTE, 1, 5, MPI_COMM_WORLD, &req);
        } else {
            MPI_Recv_init(buf, (int) size[s], MPI_BYTE, 0, 5, MPI_COMM_WORLD, &req);
        }
        QT_OK(MPI_Match(&req));
        for (int iter = 0; iter < 3; ++iter) {
            if (0 == rank) {
                for (size_t i = 0; i < size[s]; ++i) {
                    buf[i] = pattern(i, iter);
                }
            } else {
                memset(buf, 0xee, size[s]);
            }
            QT_OK(MPI_Start(&req));
            QT_OK(MPI_Wait(&req, &st));
            if (1 == rank) {
                size_t bad = size[s];
                MPI_Get_count(&st, MPI_BYTE, &count);
                QT_CHECK(0 == st.MPI_SOURCE && 5 == st.MPI_TAG && (int) size[s] == count,
                         "%zu bytes: status %d/%d/%d", size[s], st.MPI_SOURCE, st.MPI_TAG, count);
                for (size_t i = 0; i < size[s] && bad == size[s]; ++i) {
                    if (buf[i] != pattern(i, iter)) {
                        bad = i;
                    }
                }
                QT_CHECK(bad == size[s], "%zu bytes, start %d: byte %zu differs", size[s], iter,
                         bad);
            }
        }
        QT_OK(MPI_Request_free(&req));
    }
    free(buf);
}

static void in_order(void)
{
    enum { STARTS = 100 };
    long v = -1;
    MPI_Request req;
    int bad = -1;

    QT_STEP("100 starts in a row arrive in order (the sender runs ahead)");
    if (0 == rank) {
        MPI_Send_init(&v, 1, MPI_LONG, 1, 12, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(&v, 1, MPI_LONG, 0, 12, MPI_COMM_WORLD, &req);
    }
    QT_OK(MPI_Match(&req));
    for (int i = 0; i < STARTS; ++i) {
        if (0 == rank) {
            v = 1000 + i;
        }
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        if (1 == rank && bad < 0 && v != 1000 + i) {
            bad = i;
        }
    }
    QT_CHECK(bad < 0, "start %d received %ld", bad, v);
    QT_OK(MPI_Request_free(&req));
}

/* Small standard sends run ahead of their receives on every channel but
 * one that grants each message from its receive's start (match/ofi where
 * the pair's sends may be armed as triggered writes, QTEST_SEND_GRANTED=1):
 * there the first send must not complete before the receiver starts. */
static void ahead(void)
{
    enum { AHEAD = 8, TESTS = 100000 };
    int granted = NULL != getenv("QTEST_SEND_GRANTED")
                  && 0 == strcmp(getenv("QTEST_SEND_GRANTED"), "1");
    long v = -1, got = 0;
    int done = 0, flag = 0, bad = -1;
    MPI_Request req;

    QT_STEP("8 small sends complete before their receives start (granted: none does)");
    if (0 == rank) {
        MPI_Send_init(&v, 1, MPI_LONG, 1, 13, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(&v, 1, MPI_LONG, 0, 13, MPI_COMM_WORLD, &req);
    }
    QT_OK(MPI_Match(&req));
    if (0 == rank) {
        for (int i = 0; i < AHEAD; ++i) {
            v = 500 + i;
            QT_OK(MPI_Start(&req));
            flag = 0;
            for (int t = 0; t < TESTS && !flag; ++t) {
                QT_OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
            }
            if (!flag) {
                break;
            }
            ++done;
        }
        QT_CHECK(done == (granted ? 0 : AHEAD),
                 "%d of %d sends completed before their receives started, want %d", done, AHEAD,
                 granted ? 0 : AHEAD);
        /* the receiver waits for this before it starts */
        QT_OK(MPI_Send(&done, 1, MPI_INT, 1, 98, MPI_COMM_WORLD));
        if (!flag) {
            QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            ++done;
        }
        for (int i = done; i < AHEAD; ++i) {
            v = 500 + i;
            QT_OK(MPI_Start(&req));
            QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        }
    } else {
        QT_OK(MPI_Recv(&done, 1, MPI_INT, 0, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int i = 0; i < AHEAD; ++i) {
            v = -1;
            QT_OK(MPI_Start(&req));
            QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            if (bad < 0 && v != 500 + i) {
                bad = i;
                got = v;
            }
        }
        QT_CHECK(bad < 0, "receive %d got %ld, want %d", bad, got, 500 + bad);
    }
    QT_OK(MPI_Request_free(&req));
}

static void datatypes(void)
{
    enum { N = 40000 };
    double *src = malloc(3 * N * sizeof(double)), *dst = malloc(3 * N * sizeof(double));
    MPI_Datatype vec;
    MPI_Request req[2];
    int bad = -1;

    QT_STEP("non-contiguous sender, then receiver, over many chunks");
    MPI_Type_vector(N, 1, 3, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    for (int i = 0; i < 3 * N; ++i) {
        src[i] = i;
        dst[i] = -1;
    }
    if (0 == rank) {
        MPI_Send_init(src, 1, vec, 1, 6, MPI_COMM_WORLD, &req[0]);
        MPI_Send_init(src, N, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, &req[1]);
    } else {
        MPI_Recv_init(dst, N, MPI_DOUBLE, 0, 6, MPI_COMM_WORLD, &req[0]);
        MPI_Recv_init(dst, 1, vec, 0, 7, MPI_COMM_WORLD, &req[1]);
    }
    QT_OK(MPI_Matchall(2, req));
    for (int k = 0; k < 2; ++k) {
        QT_OK(MPI_Start(&req[k]));
        QT_OK(MPI_Wait(&req[k], MPI_STATUS_IGNORE));
        if (1 == rank) {
            for (int i = 0; i < N && bad < 0; ++i) {
                double want = 0 == k ? 3.0 * i : i;
                double got = 0 == k ? dst[i] : dst[3 * i];
                if (got != want || (1 == k && -1 != dst[3 * i + 1])) {
                    bad = i;
                }
            }
            QT_CHECK(bad < 0, "%s: element %d wrong", 0 == k ? "vector send" : "vector receive",
                     bad);
            for (int i = 0; i < 3 * N; ++i) {
                dst[i] = -1;
            }
        }
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
    MPI_Type_free(&vec);
    free(src);
    free(dst);
}

static void truncation(void)
{
    static const int scount[] = {100, 1 << 18};
    int *buf = malloc(((1 << 18) + 64) * sizeof(int));

    QT_STEP("truncation: MPI_ERR_TRUNCATE in the status, nothing past the buffer");
    for (int c = 0; c < 2; ++c) {
        int rcount = scount[c] / 2 + 10, count = -1;
        MPI_Request req;
        MPI_Status st;

        if (0 == rank) {
            for (int i = 0; i < scount[c]; ++i) {
                buf[i] = i;
            }
            MPI_Send_init(buf, scount[c], MPI_INT, 1, 8, MPI_COMM_WORLD, &req);
        } else {
            for (int i = 0; i < rcount + 64; ++i) {
                buf[i] = -7;
            }
            MPI_Recv_init(buf, rcount, MPI_INT, 0, 8, MPI_COMM_WORLD, &req);
        }
        QT_OK(MPI_Match(&req));
        QT_OK(MPI_Start(&req));
        if (0 == rank) {
            QT_OK(MPI_Wait(&req, &st));
            QT_OK(MPI_Request_free(&req));
            continue;
        }
        /* MPI_Wait's status has no MPI_ERROR: the error is the return
         * value, and (as for a plain persistent receive in Open MPI) the
         * request that failed is freed */
        QT_CHECK_RC(MPI_Wait(&req, &st), MPI_ERR_TRUNCATE);
        MPI_Get_count(&st, MPI_INT, &count);
        /* the sm channel defines what the PMLs leave open: the count is what
         * was written, and the buffer is filled (ob1 reports the sender's
         * count, UCX writes nothing) */
        QT_CHECK(!chan_sm || rcount == count, "%d into %d ints: count %d", scount[c], rcount,
                 count);
        for (int i = chan_sm ? 0 : rcount; i < rcount + 64; ++i) {
            int want = i < rcount ? i : -7;
            if (buf[i] != want) {
                QT_CHECK(0, "%d into %d ints: int %d is %d", scount[c], rcount, i, buf[i]);
                break;
            }
        }
        if (MPI_REQUEST_NULL != req) {
            QT_OK(MPI_Request_free(&req));
        }
    }
    free(buf);
}

static void synchronous(void)
{
    static const int count[] = {2, 1 << 20};
    char *buf = calloc(1, 1 << 20);

    QT_STEP("a synchronous send completes only once its receive has started");
    for (int c = 0; c < 2; ++c) {
        MPI_Request req;
        int flag = 0, go = 0;

        if (0 == rank) {
            MPI_Ssend_init(buf, count[c], MPI_BYTE, 1, 9, MPI_COMM_WORLD, &req);
        } else {
            MPI_Recv_init(buf, count[c], MPI_BYTE, 0, 9, MPI_COMM_WORLD, &req);
        }
        QT_OK(MPI_Match(&req));
        if (0 == rank) {
            QT_OK(MPI_Start(&req));
            /* the receiver waits for "go" before it starts */
            for (int i = 0; i < 2000 && !flag; ++i) {
                QT_OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
            }
            QT_CHECK(!flag, "%d bytes: completed before the receive started", count[c]);
            QT_OK(MPI_Send(&go, 1, MPI_INT, 1, 99, MPI_COMM_WORLD));
            QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        } else {
            QT_OK(MPI_Recv(&go, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            QT_OK(MPI_Start(&req));
            QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        }
        QT_OK(MPI_Request_free(&req));
    }
    free(buf);
}

static void freed_sender(void)
{
    int out = 4242, in = 0;
    MPI_Request req;

    QT_STEP("a send freed before its receive starts is still delivered");
    if (0 == rank) {
        MPI_Send_init(&out, 1, MPI_INT, 1, 10, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(&in, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, &req);
    }
    QT_OK(MPI_Match(&req));
    if (0 == rank) {
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Request_free(&req));
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        QT_CHECK(4242 == in, "received %d", in);
        QT_OK(MPI_Request_free(&req));
    }
}

/* count ints: 1 goes through a channel's small-message path, 1 MiB through
 * its large one (the ucx channel's rendezvous, whose tag receive is what a
 * cancel withdraws) */
static void cancelled_receive(int count)
{
    int *out = malloc(count * sizeof(int)), *in = malloc(count * sizeof(int));
    int flag = 0, bad = -1;
    MPI_Request req;
    MPI_Status st;

    QT_STEP(chan_ofi ? "a started receive is not cancelled; it gets the message"
                     : "a started receive is cancelled; the message goes to the next start");
    for (int i = 0; i < count; ++i) {
        out[i] = 77 + i;
        in[i] = -1;
    }
    if (0 == rank) {
        MPI_Send_init(out, count, MPI_INT, 1, 13, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(in, count, MPI_INT, 0, 13, MPI_COMM_WORLD, &req);
    }
    QT_OK(MPI_Match(&req));
    if (chan_ofi) {
        /* the start granted the sender, which may write at any moment:
         * the cancel fails and the receive completes with the message */
        if (1 == rank) {
            QT_OK(MPI_Start(&req));
            QT_OK(MPI_Cancel(&req));
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (0 == rank) {
            QT_OK(MPI_Start(&req));
        }
        QT_OK(MPI_Wait(&req, &st));
        if (1 == rank) {
            QT_OK(MPI_Test_cancelled(&st, &flag));
            QT_CHECK(!flag, "the receive of %d ints was cancelled after its grant", count);
        }
    } else {
        if (1 == rank) {
            QT_OK(MPI_Start(&req));
            QT_OK(MPI_Cancel(&req));
            QT_OK(MPI_Wait(&req, &st));
            QT_OK(MPI_Test_cancelled(&st, &flag));
            QT_CHECK(flag, "the receive of %d ints was not cancelled", count);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    }
    for (int i = 0; 1 == rank && i < count && bad < 0; ++i) {
        if (77 + i != in[i]) {
            bad = i;
        }
    }
    QT_CHECK(bad < 0, "%d ints: element %d received %d", count, bad, bad < 0 ? 0 : in[bad]);
    QT_OK(MPI_Request_free(&req));
    free(out);
    free(in);
}

static void many_pairs(void)
{
    MPI_Request *req = malloc(2 * PAIRS * sizeof(*req));
    long *sbuf = malloc(PAIRS * sizeof(long)), *rbuf = malloc(PAIRS * sizeof(long));
    long rss[3];
    int peer = 1 - rank, bad = -1;

    QT_STEP("1000 pairs each way, twice, with bounded memory");
    MPI_Barrier(MPI_COMM_WORLD);
    rss[0] = qt_rss_kb();
    for (int round = 0; round < 2; ++round) {
        for (int i = 0; i < PAIRS; ++i) {
            sbuf[i] = rank * 1000000L + round * 10000L + i;
            rbuf[i] = -1;
            MPI_Send_init(&sbuf[i], 1, MPI_LONG, peer, 11, MPI_COMM_WORLD, &req[2 * i]);
            MPI_Recv_init(&rbuf[i], 1, MPI_LONG, peer, 11, MPI_COMM_WORLD, &req[2 * i + 1]);
        }
        QT_OK(MPI_Matchall(2 * PAIRS, req));
        QT_OK(MPI_Startall(2 * PAIRS, req));
        QT_OK(MPI_Waitall(2 * PAIRS, req, MPI_STATUSES_IGNORE));
        for (int i = 0; i < PAIRS && bad < 0; ++i) {
            if (rbuf[i] != peer * 1000000L + round * 10000L + i) {
                bad = i;
            }
        }
        QT_CHECK(bad < 0, "round %d: pair %d received %ld", round, bad, bad < 0 ? 0 : rbuf[bad]);
        for (int i = 0; i < 2 * PAIRS; ++i) {
            QT_OK(MPI_Request_free(&req[i]));
        }
        MPI_Barrier(MPI_COMM_WORLD);
        rss[round + 1] = qt_rss_kb();
    }
    /* a slot touches one page when its messages are inline: a few MiB for
     * 1000 pairs; the second round reuses the first round's slots */
    QT_CHECK(!qt_rss_checked() || rss[0] < 0 || rss[1] - rss[0] < 48 * 1024,
             "1000 pairs grew resident memory by %ld KiB", rss[1] - rss[0]);
    QT_CHECK(!qt_rss_checked() || rss[0] < 0 || rss[2] - rss[1] < 8 * 1024,
             "1000 more pairs after freeing grew resident memory by %ld KiB", rss[2] - rss[1]);
    free(req);
    free(sbuf);
    free(rbuf);
}

int main(int argc, char **argv)
{
    int size;

    qt_init(&argc, &argv);
    chan_ofi = argc > 1 && 0 == strcmp(argv[1], "chan-ofi");
    chan_sm = chan_ofi
              || (argc > 1
                  && (0 == strcmp(argv[1], "chan-sm") || 0 == strcmp(argv[1], "chan-ucx")));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank < 2) {
        sizes();
        in_order();
        ahead();
        datatypes();
        truncation();
        synchronous();
        freed_sender();
    }
    if (2 == size) {
        cancelled_receive(1);
        cancelled_receive(1 << 18);
    }
    if (2 == size) {
        many_pairs();
    }
    return qt_finalize();
}
