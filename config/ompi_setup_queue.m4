dnl -*- autoconf -*-
dnl
dnl Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
dnl $COPYRIGHT$
dnl
dnl Additional copyrights may follow
dnl
dnl $HEADER$
dnl

dnl OMPI_SETUP_QUEUE
dnl ----------------
dnl --with-queue turns on the "Queued Communication" chapter: the match
dnl and queue frameworks, their bindings and the declarations in mpi.h.
dnl Both frameworks AC_REQUIRE this macro, so it expands once, before the
dnl first of them (match) is configured.
AC_DEFUN([OMPI_SETUP_QUEUE],[
    AC_REQUIRE([OMPI_QUEUE_SETUP_VERSION])

    AC_ARG_WITH([queue],
        [AS_HELP_STRING([--with-queue],
            [Build MPI queued communication: MPI_Match, MPI_Queue and the match and queue frameworks (default: no)])])

    AC_MSG_CHECKING([if queued communication is wanted])
    AS_IF([test "$with_queue" = "yes"],
          [ompi_want_queue=1
           AC_MSG_RESULT([yes (version $ompi_queue_version)])],
          [AS_IF([test -n "$with_queue" && test "$with_queue" != "no"],
                 [AC_MSG_WARN([--with-queue takes no argument; got "$with_queue"])
                  AC_MSG_ERROR([Cannot continue])])
           ompi_want_queue=0
           AC_MSG_RESULT([no])])

    AC_DEFINE_UNQUOTED([OMPI_WANT_QUEUE], [$ompi_want_queue],
                       [Whether MPI queued communication is built])
    AM_CONDITIONAL([OMPI_WANT_QUEUE], [test "$ompi_want_queue" = "1"])

    # The fork's version, for programs and build systems (mpi.h, patch
    # 0022) and ompi_info; only with the chapter, as OMPI_HAVE_MPI_QUEUE.
    AS_IF([test "$ompi_want_queue" = "1"],
          [AC_DEFINE_UNQUOTED([OMPI_QUEUE_VERSION_MAJOR], [$ompi_queue_version_major],
                              [Major version of Open MPI with Queued Communication])
           AC_DEFINE_UNQUOTED([OMPI_QUEUE_VERSION_MINOR], [$ompi_queue_version_minor],
                              [Minor version of Open MPI with Queued Communication])
           AC_DEFINE_UNQUOTED([OMPI_QUEUE_VERSION_RELEASE], [$ompi_queue_version_release],
                              [Release number of Open MPI with Queued Communication])
           AC_DEFINE_UNQUOTED([OMPI_QUEUE_VERSION], ["$ompi_queue_version"],
                              [Version of Open MPI with Queued Communication, as a string])])

    # Fortran: mpif.h includes mpif-queue.h (the constants) only with the
    # chapter; the preprocessed module sources read the same answer from
    # configure-fortran-queue.h.  Both files exist either way, so a build
    # without --with-queue needs nothing else.
    AS_IF([test "$ompi_want_queue" = "1"],
          [OMPI_QUEUE_MPIFH_INCLUDE="      include 'mpif-queue.h'"],
          [OMPI_QUEUE_MPIFH_INCLUDE="! (built without queued communication)"])
    AC_SUBST([OMPI_QUEUE_MPIFH_INCLUDE])
    AC_SUBST([ompi_want_queue])
    AC_CONFIG_FILES([ompi/mpi/fortran/configure-fortran-queue.h
                     ompi/mpi/fortran/use-mpi-ignore-tkr/mpi-ignore-tkr-queue-interfaces.h
                     ompi/mpi/fortran/use-mpi-f08/mod/mpi-f08-queue-interfaces.h])
])
