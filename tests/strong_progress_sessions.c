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
 * Strong progress in the Sessions model: the info key mpi_strong_progress
 * given to MPI_Session_init starts the thread, MPI_Session_get_info and
 * MPI_INFO_ENV say so, and the thread stops with the session; cycles with
 * and without the key follow each other.
 */

#include "common/qtest.h"

static int session_says(MPI_Session session, const char *want)
{
    char value[MPI_MAX_INFO_VAL + 1] = "";
    int len = sizeof(value), flag = 0, ok;
    MPI_Info info;

    MPI_Session_get_info(session, &info);
    MPI_Info_get_string(info, "mpi_strong_progress", &len, value, &flag);
    MPI_Info_free(&info);
    ok = flag && 0 == strcmp(value, want);
    if (!ok) {
        fprintf(stderr, "FAIL: MPI_Session_get_info says mpi_strong_progress=\"%s\" (%s), want %s\n",
                value, flag ? "set" : "unset", want);
    }
    len = sizeof(value);
    flag = 0;
    MPI_Info_get_string(MPI_INFO_ENV, "mpi_strong_progress", &len, value, &flag);
    if (!flag || 0 != strcmp(value, want)) {
        fprintf(stderr, "FAIL: MPI_INFO_ENV says mpi_strong_progress=\"%s\", want %s\n", value, want);
        ok = 0;
    }
    return ok;
}

int main(int argc, char **argv)
{
    static const int with_key[] = {1, 0, 1, 1};
    int failures = 0, rank = 0;
    (void) argc;
    (void) argv;

    qt_arm_watchdog();
    for (int cycle = 0; cycle < (int) (sizeof(with_key) / sizeof(with_key[0])); ++cycle) {
        MPI_Session session = MPI_SESSION_NULL;
        MPI_Info info = MPI_INFO_NULL;
        MPI_Group group;

        QT_STEP("MPI_Session_init");
        if (with_key[cycle]) {
            MPI_Info_create(&info);
            MPI_Info_set(info, "mpi_strong_progress", "true");
        }
        if (MPI_SUCCESS != MPI_Session_init(info, MPI_ERRORS_RETURN, &session)) {
            fprintf(stderr, "FAIL: MPI_Session_init in cycle %d\n", cycle);
            return 1;
        }
        if (MPI_INFO_NULL != info) {
            MPI_Info_free(&info);
        }
        MPI_Group_from_session_pset(session, "mpi://WORLD", &group);
        MPI_Group_rank(group, &rank);
        MPI_Group_free(&group);

        QT_STEP("session info");
        failures += !session_says(session, with_key[cycle] ? "true" : "false");

        QT_STEP("MPI_Session_finalize");
        MPI_Session_finalize(&session);
    }
    if (0 == rank) {
        printf("%s: %d failure(s)\n", 0 == failures ? "OK" : "FAILED", failures);
    }
    return 0 == failures ? 0 : 1;
}
