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
 * A matched ping-pong between ranks 0 and 1 (tests/dist/check-dist.sh, on
 * an install from the release tarball): persistent requests matched once
 * with MPI_Matchall, then started and waited ITERS times each way, every
 * message checked.  Also checks mpi.h's version macros against each other
 * and prints MPI_Get_library_version's string ("library: ...").
 * Prints "match_pingpong: OK" on success.
 */

#include <stdio.h>
#include <string.h>

#include <mpi.h>

#if !OMPI_HAVE_MPI_QUEUE
#error "mpi.h does not announce OMPI_HAVE_MPI_QUEUE"
#endif
#if !defined(OMPI_QUEUE_VERSION_MAJOR) || !defined(OMPI_QUEUE_VERSION_MINOR) \
    || !defined(OMPI_QUEUE_VERSION_RELEASE) || !defined(OMPI_QUEUE_VERSION)
#error "mpi.h does not define the OMPI_QUEUE_VERSION macros"
#endif

#define N 1024
#define ITERS 1000

int main(int argc, char **argv)
{
    int rank, size, peer, errors = 0, len, matched;
    int sbuf[N], rbuf[N];
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], triple[64];
    MPI_Request req[2];
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (2 != size) {
        if (0 == rank) {
            fprintf(stderr, "match_pingpong: needs 2 ranks\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    peer = 1 - rank;

    if (0 == rank) {
        snprintf(triple, sizeof(triple), "%d.%d.%d", OMPI_QUEUE_VERSION_MAJOR,
                 OMPI_QUEUE_VERSION_MINOR, OMPI_QUEUE_VERSION_RELEASE);
        if (0 != strcmp(triple, OMPI_QUEUE_VERSION)) {
            fprintf(stderr, "OMPI_QUEUE_VERSION \"%s\" is not %s\n", OMPI_QUEUE_VERSION, triple);
            ++errors;
        }
        MPI_Get_library_version(lib, &len);
        printf("library: %s\n", lib);
        printf("mpi.h: OMPI_QUEUE_VERSION %s\n", OMPI_QUEUE_VERSION);
    }

    MPI_Send_init(sbuf, N, MPI_INT, peer, 7, MPI_COMM_WORLD, &req[0]);
    MPI_Recv_init(rbuf, N, MPI_INT, peer, 7, MPI_COMM_WORLD, &req[1]);
    MPI_Matchall(2, req);
    MPI_Is_matched(req[0], &matched);
    if (!matched) {
        fprintf(stderr, "rank %d: send not matched after MPI_Matchall\n", rank);
        ++errors;
    }

    for (int it = 0; it < ITERS; ++it) {
        /* rank 0 sends first; the receiver checks what the sender wrote */
        for (int turn = 0; turn < 2; ++turn) {
            if (turn == rank) {
                for (int i = 0; i < N; ++i) {
                    sbuf[i] = it * N + i + rank;
                }
                MPI_Start(&req[0]);
                MPI_Wait(&req[0], MPI_STATUS_IGNORE);
            } else {
                memset(rbuf, 0xff, sizeof(rbuf));
                MPI_Start(&req[1]);
                MPI_Wait(&req[1], &st);
                for (int i = 0; i < N; ++i) {
                    if (rbuf[i] != it * N + i + peer) {
                        if (errors < 5) {
                            fprintf(stderr, "rank %d iteration %d: rbuf[%d] = %d, expected %d\n",
                                    rank, it, i, rbuf[i], it * N + i + peer);
                        }
                        ++errors;
                        break;
                    }
                }
                if (peer != st.MPI_SOURCE || 7 != st.MPI_TAG) {
                    fprintf(stderr, "rank %d: status source %d tag %d\n", rank, st.MPI_SOURCE,
                            st.MPI_TAG);
                    ++errors;
                }
            }
        }
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);

    MPI_Allreduce(MPI_IN_PLACE, &errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("match_pingpong: %s (%d exchanges of %d ints)\n", 0 == errors ? "OK" : "FAILED",
               2 * ITERS, N);
    }
    MPI_Finalize();
    return 0 == errors ? 0 : 1;
}
