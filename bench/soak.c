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
 * Soak: a long 8-byte ping-pong between ranks 0 and 1, to show that the
 * resident memory and the open file descriptors of each rank stay flat
 * once the caches have warmed up.  One mode per run:
 *
 *   queue         a matched MPI_Send_init/MPI_Recv_init pair (MPI_Matchall)
 *                 on an MPI_Queue of MPI_QUEUE_TYPE_DEFAULT: per cycle
 *                 MPI_Enqueue_start + MPI_Enqueue_wait of each, a
 *                 MPI_Queue_fence every K cycles
 *   iexecute      a graph token of two independent nodes (MPIX_Send_def,
 *                 MPIX_Recv_def) made once; per cycle MPIX_Iexecute +
 *                 MPI_Wait
 *   execute_init  an MPIX_Sendrecv_def token and its MPIX_Execute_init
 *                 request made once; per cycle MPI_Start + MPI_Wait
 *   stream        per cycle a new send token and a new receive token
 *                 enqueued on an MPIX stream (in ping-pong order), an
 *                 MPIX_Stream_sync every K cycles
 *
 * Usage: soak MODE CYCLES [K]  (K defaults to 100)
 *
 * The first tenth of the cycles is the warm-up; from its end on, each rank
 * samples its resident set (/proc/self/statm) and its open descriptors
 * (/proc/self/fd) after each further tenth, at a fence or sync.  Rank 0
 * prints each rank's samples, one line of figures per rank and a verdict:
 *   soak MODE: flat                       growth of every rank below the
 *                                         slack and no new descriptor
 *   soak MODE: GROWS (+N KiB, +M fds)     the largest growth of a rank
 * The slack (default 256 KiB, env SOAK_SLACK_KB) absorbs allocator noise:
 * glibc's arenas and free lists settle in steps of a few pages, and the
 * sampling itself touches a few stack and heap pages.  A leak of even 8
 * bytes a cycle over 10^5 cycles exceeds it several times.
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>
#include <mpi-ext.h>

#define SOAK_SAMPLES 10
#define SOAK_DEFAULT_K 100
#define SOAK_DEFAULT_SLACK_KB 256

#define SOAK_OK(call)                                                        \
    do {                                                                     \
        int soak_rc_ = (call);                                               \
        if (MPI_SUCCESS != soak_rc_) {                                       \
            fprintf(stderr, "soak: %s failed (%d) at line %d\n", #call,      \
                    soak_rc_, __LINE__);                                     \
            MPI_Abort(MPI_COMM_WORLD, 2);                                    \
        }                                                                    \
    } while (0)

enum { MODE_QUEUE, MODE_IEXECUTE, MODE_EXECUTE_INIT, MODE_STREAM, MODE_COUNT };
static const char *mode_names[MODE_COUNT] = {"queue", "iexecute", "execute_init", "stream"};

/* resident set in KiB, -1 if unknown */
static long rss_kb(void)
{
    long pages = 0, resident = -1;
    FILE *f = fopen("/proc/self/statm", "r");

    if (NULL != f) {
        if (2 != fscanf(f, "%ld %ld", &pages, &resident)) {
            resident = -1;
        }
        fclose(f);
    }
    return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* open descriptors, not counting the one that lists them */
static long fd_count(void)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    long n = 0;

    if (NULL == d) {
        return -1;
    }
    while (NULL != (e = readdir(d))) {
        if ('.' != e->d_name[0]) {
            ++n;
        }
    }
    closedir(d);
    return n - 1;
}

typedef struct {
    int rank, peer, k;
    char sbuf[8], rbuf[8];
    MPI_Request reqs[2];      /* queue: send, receive; execute_init: [0] */
    MPI_Queue queue;
    MPIX_Token token;
    MPIX_Stream stream;
} soak_t;

static void soak_setup(int mode, soak_t *s)
{
    MPIX_Graph g;
    MPIX_Token t;

    switch (mode) {
    case MODE_QUEUE:
        SOAK_OK(MPI_Queue_init(&s->queue, MPI_QUEUE_TYPE_DEFAULT, NULL));
        SOAK_OK(MPI_Send_init(s->sbuf, 8, MPI_CHAR, s->peer, 1, MPI_COMM_WORLD, &s->reqs[0]));
        SOAK_OK(MPI_Recv_init(s->rbuf, 8, MPI_CHAR, s->peer, 1, MPI_COMM_WORLD, &s->reqs[1]));
        SOAK_OK(MPI_Matchall(2, s->reqs));
        break;
    case MODE_IEXECUTE:
        /* two nodes of a graph rather than one sendrecv: each execution
         * goes through the dependency executor's node bookkeeping */
        SOAK_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
        SOAK_OK(MPIX_Send_def(s->sbuf, 8, MPI_CHAR, s->peer, 1, MPI_COMM_WORLD, &t));
        SOAK_OK(MPIX_Graph_add(g, &t, NULL, MPIX_DEP_NONE));
        SOAK_OK(MPIX_Recv_def(s->rbuf, 8, MPI_CHAR, s->peer, 1, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE, &t));
        SOAK_OK(MPIX_Graph_add(g, &t, NULL, MPIX_DEP_NONE));
        SOAK_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &s->token));
        SOAK_OK(MPIX_Graph_free(&g));
        break;
    case MODE_EXECUTE_INIT:
        SOAK_OK(MPIX_Sendrecv_def(s->sbuf, 8, MPI_CHAR, s->peer, 1, s->rbuf, 8, MPI_CHAR,
                                  s->peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &s->token));
        SOAK_OK(MPIX_Execute_init(s->token, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &s->reqs[0]));
        break;
    default:
        SOAK_OK(MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL,
                                   &s->stream));
        break;
    }
}

static void soak_teardown(int mode, soak_t *s)
{
    switch (mode) {
    case MODE_QUEUE:
        SOAK_OK(MPI_Request_free(&s->reqs[0]));
        SOAK_OK(MPI_Request_free(&s->reqs[1]));
        SOAK_OK(MPI_Queue_free(&s->queue));
        break;
    case MODE_IEXECUTE:
        SOAK_OK(MPIX_Token_free(&s->token));
        break;
    case MODE_EXECUTE_INIT:
        SOAK_OK(MPI_Request_free(&s->reqs[0]));
        SOAK_OK(MPIX_Token_free(&s->token));
        break;
    default:
        SOAK_OK(MPIX_Stream_free(&s->stream));
        break;
    }
}

static void soak_stream_send(soak_t *s)
{
    MPIX_Token t;
    SOAK_OK(MPIX_Send_def(s->sbuf, 8, MPI_CHAR, s->peer, 1, MPI_COMM_WORLD, &t));
    SOAK_OK(MPIX_Stream_enqueue(s->stream, &t));
}

static void soak_stream_recv(soak_t *s)
{
    MPIX_Token t;
    SOAK_OK(MPIX_Recv_def(s->rbuf, 8, MPI_CHAR, s->peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE,
                          &t));
    SOAK_OK(MPIX_Stream_enqueue(s->stream, &t));
}

/* n cycles, ending at a fence or sync so that nothing is in flight when
 * the caller samples */
static void soak_cycles(int mode, soak_t *s, long n)
{
    MPI_Request *first = &s->reqs[0 == s->rank ? 0 : 1];
    MPI_Request *second = &s->reqs[0 == s->rank ? 1 : 0];

    for (long i = 0; i < n; ++i) {
        switch (mode) {
        case MODE_QUEUE:
            SOAK_OK(MPI_Enqueue_start(&s->queue, first));
            SOAK_OK(MPI_Enqueue_wait(&s->queue, first, MPI_STATUS_IGNORE));
            SOAK_OK(MPI_Enqueue_start(&s->queue, second));
            SOAK_OK(MPI_Enqueue_wait(&s->queue, second, MPI_STATUS_IGNORE));
            if (0 == (i + 1) % s->k) {
                SOAK_OK(MPI_Queue_fence(&s->queue));
            }
            break;
        case MODE_IEXECUTE: {
            MPI_Request req;
            SOAK_OK(MPIX_Iexecute(s->token, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &req));
            SOAK_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            break;
        }
        case MODE_EXECUTE_INIT:
            SOAK_OK(MPI_Start(&s->reqs[0]));
            SOAK_OK(MPI_Wait(&s->reqs[0], MPI_STATUS_IGNORE));
            break;
        default:
            if (0 == s->rank) {
                soak_stream_send(s);
                soak_stream_recv(s);
            } else {
                soak_stream_recv(s);
                soak_stream_send(s);
            }
            if (0 == (i + 1) % s->k) {
                SOAK_OK(MPIX_Stream_sync(s->stream));
            }
            break;
        }
    }
    if (MODE_QUEUE == mode) {
        SOAK_OK(MPI_Queue_fence(&s->queue));
    } else if (MODE_STREAM == mode) {
        SOAK_OK(MPIX_Stream_sync(s->stream));
    }
}

int main(int argc, char **argv)
{
    long cycles, warm, done, rss[SOAK_SAMPLES + 1], fds[SOAK_SAMPLES + 1], peak;
    long mine[5], all[2 * 5], trace[2 * SOAK_SAMPLES], slack_kb = SOAK_DEFAULT_SLACK_KB, max_kb = 0, max_fds = 0;
    int rank, size, mode = -1, bad_payload = 0, any_bad = 0;
    const char *env;
    soak_t s;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int m = 0; argc > 1 && m < MODE_COUNT; ++m) {
        if (0 == strcmp(argv[1], mode_names[m])) {
            mode = m;
        }
    }
    cycles = argc > 2 ? atol(argv[2]) : 0;
    if (2 != size || mode < 0 || cycles < SOAK_SAMPLES) {
        if (0 == rank) {
            fprintf(stderr, "usage: mpirun -n 2 soak queue|iexecute|execute_init|stream "
                            "CYCLES(>=%d) [K]\n", SOAK_SAMPLES);
        }
        MPI_Finalize();
        return 1;
    }
    if (NULL != (env = getenv("SOAK_SLACK_KB"))) {
        slack_kb = atol(env);
    }

    memset(&s, 0, sizeof(s));
    s.rank = rank;
    s.peer = 1 - rank;
    s.k = argc > 3 ? atoi(argv[3]) : SOAK_DEFAULT_K;
    if (s.k < 1) {
        s.k = SOAK_DEFAULT_K;
    }
    /* each rank sends its own pattern; the last receive must hold the peer's */
    memset(s.sbuf, 'a' + rank, sizeof(s.sbuf));
    soak_setup(mode, &s);

    warm = cycles / SOAK_SAMPLES;
    soak_cycles(mode, &s, warm);
    done = warm;
    rss[0] = rss_kb();
    fds[0] = fd_count();
    peak = rss[0];
    for (int i = 1; i < SOAK_SAMPLES; ++i) {
        /* the last stretch takes what the division left over */
        long upto = (SOAK_SAMPLES - 1 == i) ? cycles : warm + (cycles - warm) * i / (SOAK_SAMPLES - 1);
        soak_cycles(mode, &s, upto - done);
        done = upto;
        rss[i] = rss_kb();
        fds[i] = fd_count();
        peak = rss[i] > peak ? rss[i] : peak;
    }
    for (int i = 0; i < (int) sizeof(s.rbuf); ++i) {
        bad_payload |= s.rbuf[i] != 'a' + s.peer;
    }
    soak_teardown(mode, &s);

    mine[0] = rss[0];
    mine[1] = rss[SOAK_SAMPLES - 1];
    mine[2] = fds[0];
    mine[3] = fds[SOAK_SAMPLES - 1];
    mine[4] = peak;
    MPI_Gather(mine, 5, MPI_LONG, all, 5, MPI_LONG, 0, MPI_COMM_WORLD);
    MPI_Gather(rss, SOAK_SAMPLES, MPI_LONG, trace, SOAK_SAMPLES, MPI_LONG, 0, MPI_COMM_WORLD);
    MPI_Reduce(&bad_payload, &any_bad, 1, MPI_INT, MPI_LOR, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        /* where the growth came: a step once, or a slope */
        for (int r = 0; r < 2; ++r) {
            printf("soak %s rank %d: RSS KiB after each tenth:", mode_names[mode], r);
            for (int i = 0; i < SOAK_SAMPLES; ++i) {
                printf(" %ld", trace[r * SOAK_SAMPLES + i]);
            }
            printf("\n");
        }
        for (int r = 0; r < 2; ++r) {
            long *v = &all[5 * r];
            printf("soak %s rank %d: cycles %ld rss_warm_kb %ld rss_end_kb %ld growth_kb %+ld "
                   "peak_kb %ld fds_warm %ld fds_end %ld\n",
                   mode_names[mode], r, cycles, v[0], v[1], v[1] - v[0], v[4], v[2], v[3]);
            max_kb = v[1] - v[0] > max_kb ? v[1] - v[0] : max_kb;
            max_fds = v[3] - v[2] > max_fds ? v[3] - v[2] : max_fds;
        }
        if (any_bad) {
            printf("soak %s: WRONG PAYLOAD (the last receive does not hold the peer's bytes)\n",
                   mode_names[mode]);
        }
        if (max_kb < slack_kb && 0 == max_fds) {
            printf("soak %s: flat\n", mode_names[mode]);
        } else {
            printf("soak %s: GROWS (+%ld KiB, +%ld fds)\n", mode_names[mode], max_kb, max_fds);
        }
    }
    MPI_Finalize();
    return 0;
}
