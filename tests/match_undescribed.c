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
 * Matching under a PML that does not describe its persistent requests
 * (no pml_describe in its module, patch 0045): pml/monitoring over ob1,
 * the transport of this test's line.  Every matching call on a
 * point-to-point request is refused with MPI_ERR_UNSUPPORTED_OPERATION
 * and a message that names the PML (read on the match framework's verbose
 * stream, match_base_verbose 20, which the line sets); the requests stay
 * the program's, unmatched and usable; persistent collectives, which need
 * no description, are still matched.
 */

#include <stdbool.h>
#include <unistd.h>

#include "common/qtest.h"

static int rank, size, left, right;

/* the match framework's messages go to stderr; they are read back from a
 * file in place of it, around one call */
static int capture_saved = -1, capture_file = -1;
static char captured[8192];

static void capture_begin(void)
{
    char path[] = "/tmp/qtest-undescribed-XXXXXX";

    fflush(stderr);
    capture_file = mkstemp(path);
    if (0 > capture_file) {
        return;
    }
    (void) unlink(path);
    capture_saved = dup(STDERR_FILENO);
    (void) dup2(capture_file, STDERR_FILENO);
}

static const char *capture_end(void)
{
    ssize_t n = 0;

    captured[0] = '\0';
    if (0 > capture_file) {
        return captured;
    }
    fflush(stderr);
    (void) dup2(capture_saved, STDERR_FILENO);
    close(capture_saved);
    if (0 == lseek(capture_file, 0, SEEK_SET)) {
        n = read(capture_file, captured, sizeof(captured) - 1);
    }
    captured[n > 0 ? n : 0] = '\0';
    close(capture_file);
    capture_file = capture_saved = -1;
    return captured;
}

/* the refusal names the call and the PML */
static void check_message(const char *text, const char *func)
{
    QT_CHECK(NULL != strstr(text, func), "no %s in the refusal: \"%s\"", func, text);
    QT_CHECK(NULL != strstr(text, "pml monitoring"), "the refusal does not name the PML: \"%s\"",
             text);
}

static void check_unmatched(MPI_Request r, const char *what)
{
    int flag = 1;

    QT_OK(MPI_Is_matched(r, &flag));
    QT_CHECK(!flag, "%s reports matched after a refused match", what);
}

/* one round of the two requests as plain persistent requests */
static void exchange(MPI_Request *rs, MPI_Request *rr, int *s, int *v, int round)
{
    MPI_Status st;

    *s = 100 * round + rank;
    *v = -1;
    QT_OK(MPI_Start(rr));
    QT_OK(MPI_Start(rs));
    QT_OK(MPI_Wait(rs, MPI_STATUS_IGNORE));
    QT_OK(MPI_Wait(rr, &st));
    QT_CHECK(100 * round + left == *v, "round %d: data %d", round, *v);
    QT_CHECK(left == st.MPI_SOURCE, "round %d: source %d", round, st.MPI_SOURCE);
}

static void refused(void)
{
    int s = 0, v = 0, rc;
    MPI_Request rs, rr, saved;
    const char *text;

    QT_STEP("MPI_Match of a send and a receive");
    MPI_Send_init(&s, 1, MPI_INT, right, 11, MPI_COMM_WORLD, &rs);
    MPI_Recv_init(&v, 1, MPI_INT, left, 11, MPI_COMM_WORLD, &rr);
    saved = rs;
    capture_begin();
    rc = MPI_Match(&rs);
    text = capture_end();
    QT_CHECK_RC(rc, MPI_ERR_UNSUPPORTED_OPERATION);
    check_message(text, "MPI_Match");
    QT_CHECK(saved == rs, "a refused MPI_Match changed the handle");
    saved = rr;
    QT_CHECK_RC(MPI_Match(&rr), MPI_ERR_UNSUPPORTED_OPERATION);
    QT_CHECK(saved == rr, "a refused MPI_Match changed the handle");
    check_unmatched(rs, "the send");
    check_unmatched(rr, "the receive");

    QT_STEP("the refused requests work as the PML's");
    exchange(&rs, &rr, &s, &v, 1);
    exchange(&rs, &rr, &s, &v, 2);
    MPI_Request_free(&rs);
    MPI_Request_free(&rr);
}

static void refused_all(void)
{
    int s[3] = {0}, v = 0, w = 0, rc;
    MPI_Request r[4], copy[4];
    const char *text;

    QT_STEP("MPI_Matchall of every send mode and a wildcard receive");
    MPI_Send_init(&s[0], 1, MPI_INT, right, 12, MPI_COMM_WORLD, &r[0]);
    MPI_Ssend_init(&s[1], 1, MPI_INT, right, 13, MPI_COMM_WORLD, &r[1]);
    MPI_Recv_init(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r[2]);
    MPI_Recv_init(&w, 1, MPI_INT, left, 13, MPI_COMM_WORLD, &r[3]);
    memcpy(copy, r, sizeof(r));
    capture_begin();
    rc = MPI_Matchall(4, r);
    text = capture_end();
    QT_CHECK_RC(rc, MPI_ERR_UNSUPPORTED_OPERATION);
    check_message(text, "MPI_Matchall");
    QT_CHECK(0 == memcmp(copy, r, sizeof(r)), "a refused MPI_Matchall changed handles");
    for (int i = 0; i < 4; ++i) {
        check_unmatched(r[i], "a member of MPI_Matchall");
    }

    QT_STEP("the refused requests work as the PML's");
    s[0] = 1000 + rank;
    s[1] = 2000 + rank;
    QT_OK(MPI_Start(&r[2]));
    QT_OK(MPI_Start(&r[0]));
    QT_OK(MPI_Wait(&r[2], MPI_STATUS_IGNORE));
    QT_OK(MPI_Start(&r[3]));
    QT_OK(MPI_Start(&r[1]));
    QT_OK(MPI_Waitall(2, &r[0], MPI_STATUSES_IGNORE));
    QT_OK(MPI_Wait(&r[3], MPI_STATUS_IGNORE));
    QT_CHECK(1000 + left == v, "wildcard receive %d", v);
    QT_CHECK(2000 + left == w, "synchronous send's data %d", w);
    for (int i = 0; i < 4; ++i) {
        MPI_Request_free(&r[i]);
    }
}

static void refused_imatch(void)
{
    int s = 0, rc;
    MPI_Request rs, saved, m = MPI_REQUEST_NULL;
    const char *text;

    QT_STEP("MPI_Imatch and MPI_Imatchall of a buffered and a ready send");
    MPI_Bsend_init(&s, 1, MPI_INT, right, 14, MPI_COMM_WORLD, &rs);
    saved = rs;
    capture_begin();
    rc = MPI_Imatch(&rs, &m);
    text = capture_end();
    QT_CHECK_RC(rc, MPI_ERR_UNSUPPORTED_OPERATION);
    check_message(text, "MPI_Imatch");
    QT_CHECK(saved == rs, "a refused MPI_Imatch changed the handle");
    QT_CHECK(MPI_REQUEST_NULL == m, "a refused MPI_Imatch returned a match request");
    check_unmatched(rs, "the buffered send");
    MPI_Request_free(&rs);

    MPI_Rsend_init(&s, 1, MPI_INT, right, 15, MPI_COMM_WORLD, &rs);
    saved = rs;
    QT_CHECK_RC(MPI_Imatchall(1, &rs, &m), MPI_ERR_UNSUPPORTED_OPERATION);
    QT_CHECK(saved == rs, "a refused MPI_Imatchall changed the handle");
    QT_CHECK(MPI_REQUEST_NULL == m, "a refused MPI_Imatchall returned a match request");
    check_unmatched(rs, "the ready send");
    MPI_Request_free(&rs);
}

static void collective(void)
{
    int in, out = 0, flag = 0;
    MPI_Request r;

    QT_STEP("a persistent collective is still matched");
    MPI_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    QT_OK(MPI_Match(&r));
    QT_OK(MPI_Is_matched(r, &flag));
    QT_CHECK(flag, "the matched collective reports unmatched");
    for (int it = 0; it < 3; ++it) {
        in = rank + it;
        QT_OK(MPI_Start(&r));
        QT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        QT_CHECK(size * (size - 1) / 2 + size * it == out, "allreduce %d", out);
    }
    MPI_Request_free(&r);
}

static const qt_case_t cases[] = {
    QT_CASE(refused),
    QT_CASE(refused_all),
    QT_CASE(refused_imatch),
    QT_CASE(collective),
};

int main(int argc, char **argv)
{
    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank - 1 + size) % size;
    right = (rank + 1) % size;

    qt_run_cases(qt_case_list(argc, argv), cases, sizeof(cases) / sizeof(cases[0]));
    return qt_finalize();
}
