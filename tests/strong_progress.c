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
 * Strong progress: with the progress thread on, operations (point-to-point,
 * collective, enqueued on a queue) complete while the ranks compute without
 * calling MPI.  The "computing" rank only reads
 * memory: the receive buffer, a result buffer, or a file that its peer
 * creates once its MPI_Send has returned.  Each wait is bounded (a hang
 * guard, not a timing check) and names what did not happen.
 *
 * argv[1]: "on" when the thread must run, "off" when it must not; the test
 * checks that MPI_INFO_ENV says so.
 */

#include <stdint.h>
#include <time.h>

#include "common/qtest.h"

#define EAGER_COUNT 64
#define RNDV_COUNT (1 << 20) /* 4 MiB of ints: rendezvous on every transport */
#define WAIT_LIMIT_S 30

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Spin on memory, with no MPI call, until pred() or the hang guard. */
static int compute_until(int (*pred)(const void *), const void *arg)
{
    double start = now();
    while (!pred(arg)) {
        if (now() - start > WAIT_LIMIT_S) {
            return 0;
        }
    }
    return 1;
}

static int last_int_is(const void *arg)
{
    const volatile int *p = (const volatile int *) ((const void *const *) arg)[0];
    int want = *(const int *) ((const void *const *) arg)[1];
    return *p == want;
}

static int file_exists(const void *arg)
{
    return 0 == access((const char *) arg, F_OK);
}

static void check_info_env(const char *expect)
{
    char value[MPI_MAX_INFO_VAL + 1] = "";
    int flag = 0;

    QT_STEP("MPI_INFO_ENV reports mpi_strong_progress");
    MPI_Info_get_string(MPI_INFO_ENV, "mpi_strong_progress", &(int){sizeof(value)}, value, &flag);
    QT_CHECK(flag, "MPI_INFO_ENV has no key mpi_strong_progress");
    QT_CHECK(0 == strcmp(value, 0 == strcmp(expect, "on") ? "true" : "false"),
             "mpi_strong_progress is \"%s\", expected %s", value, expect);
}

static void eager_and_rendezvous(int rank, int size, const char *dir)
{
    int peer = (rank % 2) ? rank - 1 : rank + 1;
    static int buf[RNDV_COUNT];
    char flag_path[512];
    MPI_Status status;
    MPI_Request req;
    int want;

    if (peer >= size) {
        return;
    }
    snprintf(flag_path, sizeof(flag_path), "%s/sent.%d", dir, rank / 2);

    QT_STEP("eager receive completes while the receiver computes");
    if (rank % 2) {
        for (int i = 0; i < EAGER_COUNT; ++i) {
            buf[i] = -1;
        }
        MPI_Irecv(buf, EAGER_COUNT, MPI_INT, peer, 1, MPI_COMM_WORLD, &req);
        MPI_Barrier(MPI_COMM_WORLD);
        want = 1000 + EAGER_COUNT - 1;
        QT_CHECK(compute_until(last_int_is, (const void *[]){&buf[EAGER_COUNT - 1], &want}),
                 "the eager message did not arrive while the receiver computed");
        MPI_Wait(&req, &status);
        QT_CHECK(peer == status.MPI_SOURCE && 1 == status.MPI_TAG, "eager status %d/%d",
                 status.MPI_SOURCE, status.MPI_TAG);
    } else {
        int small[EAGER_COUNT];
        for (int i = 0; i < EAGER_COUNT; ++i) {
            small[i] = 1000 + i;
        }
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(small, EAGER_COUNT, MPI_INT, peer, 1, MPI_COMM_WORLD);
    }

    QT_STEP("rendezvous send completes while the receiver computes");
    if (rank % 2) {
        MPI_Irecv(buf, RNDV_COUNT, MPI_INT, peer, 2, MPI_COMM_WORLD, &req);
        MPI_Barrier(MPI_COMM_WORLD);
        QT_CHECK(compute_until(file_exists, flag_path),
                 "the peer's rendezvous MPI_Send did not return while this rank computed");
        MPI_Wait(&req, &status);
        for (int i = 0; i < RNDV_COUNT; i += 4099) {
            if (buf[i] != i) {
                QT_CHECK(0, "rendezvous data wrong at %d: %d", i, buf[i]);
                break;
            }
        }
        unlink(flag_path);
    } else {
        for (int i = 0; i < RNDV_COUNT; ++i) {
            buf[i] = i;
        }
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(buf, RNDV_COUNT, MPI_INT, peer, 2, MPI_COMM_WORLD);
        FILE *f = fopen(flag_path, "w");
        QT_CHECK(NULL != f, "cannot create %s", flag_path);
        if (NULL != f) {
            fclose(f);
        }
    }
    if (size % 2 && rank == size - 1) {
        return;
    }
}

static void nonblocking_collective(int rank, int size)
{
    volatile int result = -1;
    int mine = rank + 1, want = size * (size + 1) / 2;
    MPI_Request req;

    QT_STEP("nonblocking allreduce completes while every rank computes");
    MPI_Iallreduce(&mine, (int *) &result, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    QT_CHECK(compute_until(last_int_is, (const void *[]){(const int *) &result, &want}),
             "MPI_Iallreduce did not complete while the ranks computed (result %d)", result);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    QT_CHECK(want == result, "allreduce gave %d, expected %d", result, want);
}

static void queue_without_fence(int rank, int size)
{
    static int sbuf[EAGER_COUNT], rbuf[EAGER_COUNT];
    int left = (rank - 1 + size) % size, right = (rank + 1) % size, want;
    MPI_Request reqs[2];
    MPI_Queue q;

    QT_STEP("queue operations complete without a fence while the ranks compute");
    for (int i = 0; i < EAGER_COUNT; ++i) {
        sbuf[i] = rank * 100 + i;
        rbuf[i] = -1;
    }
    MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL);
    MPI_Recv_init(rbuf, EAGER_COUNT, MPI_INT, left, 3, MPI_COMM_WORLD, &reqs[0]);
    MPI_Send_init(sbuf, EAGER_COUNT, MPI_INT, right, 3, MPI_COMM_WORLD, &reqs[1]);
    MPI_Matchall(2, reqs);
    MPI_Barrier(MPI_COMM_WORLD);
    /* the received data can land only through progress: the thread's */
    QT_OK(MPI_Enqueue_start(&q, &reqs[1]));
    QT_OK(MPI_Enqueue_wait(&q, &reqs[1], MPI_STATUS_IGNORE));
    QT_OK(MPI_Enqueue_start(&q, &reqs[0]));
    QT_OK(MPI_Enqueue_wait(&q, &reqs[0], MPI_STATUS_IGNORE));
    want = left * 100 + EAGER_COUNT - 1;
    QT_CHECK(compute_until(last_int_is, (const void *[]){&rbuf[EAGER_COUNT - 1], &want}),
             "the enqueued receive did not complete while the ranks computed");
    QT_OK(MPI_Queue_fence(&q));
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    MPI_Queue_free(&q);
}

int main(int argc, char **argv)
{
    const char *expect = argc > 1 ? argv[1] : "on";
    char dir[256] = "";
    int rank, size;

    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_info_env(expect);

    if (0 == strcmp(expect, "on")) {
        QT_STEP("shared flag directory");
        if (0 == rank) {
            snprintf(dir, sizeof(dir), "%s/qtest-progress-XXXXXX",
                     NULL != getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
            QT_CHECK(NULL != mkdtemp(dir), "mkdtemp failed");
        }
        MPI_Bcast(dir, sizeof(dir), MPI_CHAR, 0, MPI_COMM_WORLD);
        eager_and_rendezvous(rank, size, dir);
        nonblocking_collective(rank, size);
        MPI_Barrier(MPI_COMM_WORLD);
        queue_without_fence(rank, size);
        MPI_Barrier(MPI_COMM_WORLD);
        if (0 == rank) {
            rmdir(dir);
        }
    } else {
        /* weak progress: the same exchanges, completed by MPI calls */
        int mine = rank + 1, sum = 0;
        MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        QT_CHECK(size * (size + 1) / 2 == sum, "allreduce gave %d", sum);
    }
    return qt_finalize();
}
