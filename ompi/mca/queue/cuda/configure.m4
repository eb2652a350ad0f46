# -*- shell-script -*-
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#

# MCA_ompi_queue_cuda_CONFIG([action-if-can-compile],
#                            [action-if-cant-compile])
# ------------------------------------------------
# The component needs only cuda.h at build time: it loads the CUDA driver
# with dlopen and cuGetProcAddress at run time, so libmpi never depends on
# libcuda and the component loads on machines without a GPU.
AC_DEFUN([MCA_ompi_queue_cuda_CONFIG],[
    AC_CONFIG_FILES([ompi/mca/queue/cuda/Makefile])
    OPAL_VAR_SCOPE_PUSH([queue_cuda_happy queue_cuda_dir queue_cuda_save_CPPFLAGS])

    AC_ARG_WITH([queue-cuda],
        [AS_HELP_STRING([--with-queue-cuda(=DIR)],
            [Build the CUDA stream queue component against DIR/include/cuda.h (default: the --with-cuda directory, else /usr/local/cuda; CUDA 11.7 or newer). The driver itself is loaded at run time.])])

    AS_IF([test "$with_queue_cuda" = "no"],
          [queue_cuda_happy=no],
          [AS_IF([test -n "$with_queue_cuda" && test "$with_queue_cuda" != "yes"],
                 [queue_cuda_dir=$with_queue_cuda],
                 [test -n "$with_cuda" && test -d "$with_cuda"],
                 [queue_cuda_dir=$with_cuda],
                 [queue_cuda_dir=/usr/local/cuda])
           queue_cuda_CPPFLAGS="-I$queue_cuda_dir/include"
           queue_cuda_save_CPPFLAGS=$CPPFLAGS
           CPPFLAGS="$CPPFLAGS $queue_cuda_CPPFLAGS"
           AC_MSG_CHECKING([for cuda.h 11.7 or newer in $queue_cuda_dir/include])
           AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <cuda.h>
#if CUDA_VERSION < 11070
#error "CUDA 11.7 or newer is required"
#endif
]], [[CUstreamWaitValue_flags f = CU_STREAM_WAIT_VALUE_GEQ; (void) f;]])],
                 [queue_cuda_happy=yes],
                 [queue_cuda_happy=no])
           AC_MSG_RESULT([$queue_cuda_happy])
           CPPFLAGS=$queue_cuda_save_CPPFLAGS])

    AS_IF([test "$queue_cuda_happy" = "no" && test -n "$with_queue_cuda" && test "$with_queue_cuda" != "no"],
          [AC_MSG_ERROR([--with-queue-cuda was given but no usable cuda.h was found. Aborting])])

    AS_IF([test "$queue_cuda_happy" = "yes"],
          [$1],
          [queue_cuda_CPPFLAGS=
           $2])

    AC_SUBST([queue_cuda_CPPFLAGS])
    OPAL_VAR_SCOPE_POP
])
