# -*- shell-script -*-
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#

# MCA_ompi_queue_hip_CONFIG([action-if-can-compile],
#                           [action-if-cant-compile])
# ------------------------------------------------
# Built against the HIP headers (Debian's libamdhip64-dev by default); the
# HIP runtime is loaded at run time, so libmpi never depends on it.  This
# does not turn on Open MPI's ROCm support (--with-rocm) for the rest of the
# build.
AC_DEFUN([MCA_ompi_queue_hip_CONFIG],[
    AC_CONFIG_FILES([ompi/mca/queue/hip/Makefile])
    OPAL_VAR_SCOPE_PUSH([queue_hip_happy queue_hip_save_CPPFLAGS])

    AC_ARG_WITH([queue-hip],
        [AS_HELP_STRING([--with-queue-hip(=DIR)],
            [Build the HIP stream queue component against DIR/include/hip (default: the system headers, else --with-rocm's DIR). The HIP runtime itself is loaded at run time.])])

    AS_IF([test "$with_queue_hip" = "no"],
          [queue_hip_happy=no],
          [queue_hip_CPPFLAGS="-D__HIP_PLATFORM_AMD__"
           AS_IF([test -n "$with_queue_hip" && test "$with_queue_hip" != "yes"],
                 [queue_hip_CPPFLAGS="$queue_hip_CPPFLAGS -I$with_queue_hip/include"],
                 [test -n "$with_rocm" && test -d "$with_rocm"],
                 [queue_hip_CPPFLAGS="$queue_hip_CPPFLAGS -I$with_rocm/include"])
           queue_hip_save_CPPFLAGS=$CPPFLAGS
           CPPFLAGS="$CPPFLAGS $queue_hip_CPPFLAGS"
           AC_MSG_CHECKING([for HIP stream memory operations in hip/hip_runtime_api.h])
           AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <hip/hip_runtime_api.h>]],
                                              [[hipError_t (*w)(hipStream_t, void *, uint64_t, unsigned int) = hipStreamWriteValue64; (void) w;]])],
                             [queue_hip_happy=yes],
                             [queue_hip_happy=no])
           AC_MSG_RESULT([$queue_hip_happy])
           CPPFLAGS=$queue_hip_save_CPPFLAGS])

    AS_IF([test "$queue_hip_happy" = "no" && test -n "$with_queue_hip" && test "$with_queue_hip" != "no"],
          [AC_MSG_ERROR([--with-queue-hip was given but no usable HIP headers were found. Aborting])])

    AS_IF([test "$queue_hip_happy" = "yes"],
          [$1],
          [queue_hip_CPPFLAGS=
           $2])

    AC_SUBST([queue_hip_CPPFLAGS])
    OPAL_VAR_SCOPE_POP
])
