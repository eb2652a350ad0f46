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
 * A message larger than its receive buffer: the receive reports
 * MPI_ERR_TRUNCATE, nothing after the buffer (a guard region of 1 MiB) and
 * nothing in the gaps of a non-contiguous buffer is written, the send
 * completes, and a message of the same size sent right after arrives whole.
 * Over ob1 (OMPI_MCA_pml=ob1), as it always has, the count is the message's
 * size (matched receives: or the buffer's, on the sm channel) and the buffer
 * holds the message's first bytes.
 *
 * Message sizes sit around and above ob1's protocol thresholds: sm sends
 * eagerly up to 4 KiB, then by rendezvous, read by RDMA get when a
 * single-copy mechanism (CMA) is there and by copy in/out otherwise; tcp
 * sends eagerly up to 64 KiB, then by rendezvous with RDMA put (copy in/out
 * without the put flag).  Each message goes into a buffer a few bytes short,
 * one half as large and an empty one, of contiguous and vector types (and
 * count 0 of a type of size 0 for the empty buffer); by MPI_Recv, MPI_Irecv
 * from any source, MPI_Mprobe/MPI_Mrecv, MPI_Recv_init/MPI_Start and, when
 * the library has the queue chapter, matched persistent receives
 * (MPI_Match).  Rank 0 sends, rank 1 receives, other ranks only take part in
 * the verdict.
 *
 * Arguments: "quick": only the sizes up to 256 KiB (and one 4 MiB case);
 * "no-empty-type": leave out the type of size 0 (stock 5.0.7 ob1 crashes on
 * it, which ends the run before the other cases).  Other words are ignored
 * (tests.list names its runs with them).
 */

#include <stdint.h>

#include "common/qtest.h"

#define GUARD (1 << 20)
#define GUARD_BYTE 0xA5
#define GAP_BYTE 0x5A
#define TAG_TRUNC 7
#define TAG_AFTER 8
/* vector receive type: blocks of VBLOCK bytes every 2 * VBLOCK bytes */
#define VBLOCK 24

/* the modes that the sender serves with MPI_Send come first */
enum { MODE_RECV, MODE_IRECV, MODE_MRECV, MODE_PERSISTENT, MODE_MATCHED, MODE_COUNT };
static const char *mode_name[MODE_COUNT] = {"MPI_Recv", "MPI_Irecv from any source",
                                            "MPI_Mrecv", "persistent", "matched"};

static int rank, ob1;
static char step[256];

static unsigned char msg_byte(size_t i, int seed)
{
    uint32_t x = (uint32_t) i + (uint32_t) seed * 2654435761u;

    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return (unsigned char) x;
}

/* Receive buffer layout of one case. */
typedef struct {
    MPI_Datatype type; /* MPI_BYTE, the vector type, or a type of size 0 */
    int count;
    size_t packed;     /* bytes the receive may take */
    size_t extent;     /* bytes the datatype spans */
    int vector;
    int derived;
} layout_t;

/* "vector" with no room at all is a count of 0 of a type of size 0 */
static void layout_make(layout_t *l, size_t packed, int vector)
{
    l->vector = vector && VBLOCK <= packed;
    l->derived = vector;
    if (!vector) {
        l->type = MPI_BYTE;
        l->count = (int) packed;
        l->packed = packed;
        l->extent = packed;
        return;
    }
    if (!l->vector) {
        MPI_Type_contiguous(0, MPI_BYTE, &l->type);
        l->count = 0;
        l->packed = l->extent = 0;
    } else {
        l->count = 1;
        /* whole blocks only, so that the packed size is what the datatype says */
        MPI_Type_vector((int) (packed / VBLOCK), VBLOCK, 2 * VBLOCK, MPI_BYTE, &l->type);
        l->packed = (packed / VBLOCK) * VBLOCK;
        l->extent = (packed / VBLOCK - 1) * 2 * VBLOCK + VBLOCK;
    }
    MPI_Type_commit(&l->type);
}

static void layout_free(layout_t *l)
{
    if (l->derived) {
        MPI_Type_free(&l->type);
    }
}

/* Position in the buffer of packed byte k. */
static size_t layout_pos(const layout_t *l, size_t k)
{
    return l->vector ? (k / VBLOCK) * 2 * VBLOCK + k % VBLOCK : k;
}

/* matches (MODE_MATCHED), starts, waits for and frees a persistent request */
static int run_persistent(int mode, MPI_Request *req, MPI_Status *st)
{
    int rc;

#ifdef MPI_QUEUE_NULL
    if (MODE_MATCHED == mode) {
        rc = MPI_Match(req);
        QT_CHECK(MPI_SUCCESS == rc, "%s: MPI_Match returned %d", step, rc);
    }
#else
    (void) mode;
#endif
    rc = MPI_Start(req);
    if (MPI_SUCCESS == rc) {
        rc = MPI_Wait(req, st);
    }
    /* Open MPI frees a request whose wait reports an error, persistent or
     * not */
    if (MPI_REQUEST_NULL != *req) {
        MPI_Request_free(req);
    }
    return rc;
}

static int post_recv(int mode, void *buf, const layout_t *l, int tag, MPI_Status *st)
{
    MPI_Request req = MPI_REQUEST_NULL;
    int rc;

    switch (mode) {
    case MODE_RECV:
        return MPI_Recv(buf, l->count, l->type, 0, tag, MPI_COMM_WORLD, st);
    case MODE_IRECV:
        /* the receive matched by any source prepares its convertor apart */
        rc = MPI_Irecv(buf, l->count, l->type, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &req);
        if (MPI_SUCCESS != rc) {
            return rc;
        }
        return MPI_Wait(&req, st);
    case MODE_MRECV: {
        MPI_Message msg;
        rc = MPI_Mprobe(0, tag, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
        if (MPI_SUCCESS != rc) {
            return rc;
        }
        return MPI_Mrecv(buf, l->count, l->type, &msg, st);
    }
    default:
        rc = MPI_Recv_init(buf, l->count, l->type, 0, tag, MPI_COMM_WORLD, &req);
        if (MPI_SUCCESS != rc) {
            return rc;
        }
        return run_persistent(mode, &req, st);
    }
}

static int post_send(int mode, const void *buf, size_t len, int tag)
{
    MPI_Request req;
    int rc;

    if (MODE_PERSISTENT > mode) {
        return MPI_Send(buf, (int) len, MPI_BYTE, 1, tag, MPI_COMM_WORLD);
    }
    rc = MPI_Send_init(buf, (int) len, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &req);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    return run_persistent(mode, &req, MPI_STATUS_IGNORE);
}

static void one_case(size_t len, size_t rlen, int vector, int mode, unsigned char *sbuf,
                     unsigned char *rbuf)
{
    int seed = (int) (len ^ rlen) + 13 * mode + vector;
    int rc, cls;

    snprintf(step, sizeof(step), "%zu-byte message into %zu bytes, %s, %s", len, rlen,
             vector ? (VBLOCK <= rlen ? "vector" : "type of size 0") : "contiguous",
             mode_name[mode]);
    QT_STEP(step);

    if (0 == rank) {
        for (size_t i = 0; i < len; ++i) {
            sbuf[i] = msg_byte(i, seed);
        }
        rc = post_send(mode, sbuf, len, TAG_TRUNC);
        QT_CHECK(MPI_SUCCESS == rc, "%s: truncated send returned %d", step, rc);
        /* a message of the same size right after, into a buffer that fits */
        for (size_t i = 0; i < len; ++i) {
            sbuf[i] = msg_byte(i, seed + 1);
        }
        rc = MPI_Send(sbuf, (int) len, MPI_BYTE, 1, TAG_AFTER, MPI_COMM_WORLD);
        QT_CHECK(MPI_SUCCESS == rc, "%s: following send returned %d", step, rc);
    } else if (1 == rank) {
        layout_t l;
        MPI_Status st;
        int count = -1;
        size_t bad = SIZE_MAX;

        layout_make(&l, rlen, vector);
        memset(rbuf, GAP_BYTE, l.extent);
        memset(rbuf + l.extent, GUARD_BYTE, GUARD);
        memset(&st, 0, sizeof(st));
        rc = post_recv(mode, rbuf, &l, TAG_TRUNC, &st);
        cls = rc;
        if (MPI_SUCCESS != rc) {
            MPI_Error_class(rc, &cls);
        }
        QT_CHECK(MPI_ERR_TRUNCATE == cls, "%s: receive returned class %d, expected "
                 "MPI_ERR_TRUNCATE", step, cls);
        QT_CHECK(0 == st.MPI_SOURCE && TAG_TRUNC == st.MPI_TAG, "%s: status source %d tag %d",
                 step, st.MPI_SOURCE, st.MPI_TAG);
        /* ob1 counts the whole message, as it always has; MPI leaves the
         * count of a truncated receive open, so other PMLs, and the match
         * framework's sm channel (matched receives), may count the bytes
         * received */
        MPI_Get_count(&st, MPI_BYTE, &count);
        QT_CHECK((int) len == count || ((!ob1 || MODE_MATCHED == mode) && (int) l.packed == count),
                 "%s: status count %d, the message has %zu bytes", step, count, len);

        for (size_t i = 0; i < GUARD; ++i) {
            if (GUARD_BYTE != rbuf[l.extent + i]) {
                bad = i;
                break;
            }
        }
        if (SIZE_MAX != bad) {
            size_t last = bad;
            for (size_t i = bad; i < GUARD; ++i) {
                if (GUARD_BYTE != rbuf[l.extent + i]) {
                    last = i;
                }
            }
            QT_CHECK(0, "%s: bytes %zu to %zu after the buffer were written", step, bad, last);
        }
        /* MPI only forbids writing outside the buffer; ob1 fills the buffer
         * with the start of the message, UCX leaves it as it was */
        for (size_t k = 0; ob1 && k < l.packed; ++k) {
            if (rbuf[layout_pos(&l, k)] != msg_byte(k, seed)) {
                QT_CHECK(0, "%s: buffer byte %zu is %d, the message's is %d", step, k,
                         rbuf[layout_pos(&l, k)], msg_byte(k, seed));
                break;
            }
        }
        if (l.vector) {
            for (size_t i = 0; i < l.extent; ++i) {
                if (VBLOCK <= i % (2 * VBLOCK) && GAP_BYTE != rbuf[i]) {
                    QT_CHECK(0, "%s: gap byte %zu of the vector type was written", step, i);
                    break;
                }
            }
        }
        layout_free(&l);

        memset(rbuf, 0, len);
        memset(&st, 0, sizeof(st));
        rc = MPI_Recv(rbuf, (int) len, MPI_BYTE, 0, TAG_AFTER, MPI_COMM_WORLD, &st);
        QT_CHECK(MPI_SUCCESS == rc, "%s: following receive returned %d", step, rc);
        MPI_Get_count(&st, MPI_BYTE, &count);
        QT_CHECK((int) len == count, "%s: following receive count %d", step, count);
        for (size_t i = 0; i < len; ++i) {
            if (rbuf[i] != msg_byte(i, seed + 1)) {
                QT_CHECK(0, "%s: following message byte %zu is %d, expected %d", step, i,
                         rbuf[i], msg_byte(i, seed + 1));
                break;
            }
        }
    }
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = {1024, 4097, 16384, 65537, 262144, 4 << 20, 16 << 20};
    int nsizes = (int) (sizeof(sizes) / sizeof(sizes[0]));
    int quick = 0, empty_type = 1;
    int modes = MODE_COUNT;
    unsigned char *sbuf, *rbuf;
    size_t max = sizes[nsizes - 1];

#ifndef MPI_QUEUE_NULL
    modes = MODE_MATCHED; /* no MPI_Match in this library */
#endif
    for (int i = 1; i < argc; ++i) {
        quick |= 0 == strcmp(argv[i], "quick");
        empty_type &= 0 != strcmp(argv[i], "no-empty-type");
    }
    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ob1 = NULL != getenv("OMPI_MCA_pml") && 0 == strcmp(getenv("OMPI_MCA_pml"), "ob1");
    sbuf = malloc(max);
    rbuf = malloc(2 * max + GUARD);
    QT_CHECK(NULL != sbuf && NULL != rbuf, "out of memory");

    for (int s = 0; s < nsizes && NULL != sbuf && NULL != rbuf; ++s) {
        size_t len = sizes[s];
        size_t rlens[3] = {len - 3, len / 2, 0};

        if (quick && (1 << 18) < len) {
            if ((4 << 20) < len) {
                break;
            }
            rlens[1] = rlens[2] = rlens[0]; /* one case per mode and type */
        }
        for (int r = 0; r < 3; ++r) {
            if (0 < r && rlens[r] == rlens[r - 1]) {
                continue;
            }
            for (int vector = 0; vector < (0 == rlens[r] && !empty_type ? 1 : 2); ++vector) {
                for (int mode = 0; mode < modes; ++mode) {
                    one_case(len, rlens[r], vector, mode, sbuf, rbuf);
                }
            }
        }
    }

    free(sbuf);
    free(rbuf);
    return qt_finalize();
}
