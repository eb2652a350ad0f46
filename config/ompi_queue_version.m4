dnl -*- autoconf -*-
dnl
dnl Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
dnl $COPYRIGHT$
dnl
dnl Additional copyrights may follow
dnl
dnl $HEADER$
dnl

dnl OMPI_QUEUE_SETUP_VERSION
dnl ------------------------
dnl The version of Open MPI with Queued Communication, kept on the
dnl "ompi_queue_version=" line below and nowhere else: configure takes it
dnl from there, and so do the top-level Makefile's "make dist" (the
dnl tarball's name) and tests/dist/check-dist.sh.  Sets
dnl $ompi_queue_version and its three numbers for the default ident string
dnl (patch 0022 in config/opal_configure_options.m4) and for
dnl OMPI_SETUP_QUEUE, which defines the OMPI_QUEUE_VERSION* macros of
dnl mpi.h under --with-queue.
AC_DEFUN([OMPI_QUEUE_SETUP_VERSION],[
    ompi_queue_version=1.0.0
    ompi_queue_version_major=`echo "$ompi_queue_version" | cut -d. -f1`
    ompi_queue_version_minor=`echo "$ompi_queue_version" | cut -d. -f2`
    ompi_queue_version_release=`echo "$ompi_queue_version" | cut -d. -f3`
])
