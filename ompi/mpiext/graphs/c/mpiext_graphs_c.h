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
 * MPIX graphs and streams (deferred operations, execution, streams).
 * Reached through #include <mpi-ext.h>; OMPI_HAVE_MPI_EXT_GRAPHS is 1.
 * docs/graphs-streams.md is the side document; docs/man/ has a page per
 * function.
 */

typedef struct ompi_mpix_token_t *MPIX_Token;
typedef struct ompi_mpix_graph_t *MPIX_Graph;
typedef struct ompi_mpix_stream_t *MPIX_Stream;

#define MPIX_TOKEN_NULL ((MPIX_Token) 0)
#define MPIX_GRAPH_NULL ((MPIX_Graph) 0)
#define MPIX_STREAM_NULL ((MPIX_Stream) 0)

#define MPIX_DEP_NONE 0

/* execution locations (loc_type) */
#define MPIX_LOC_INPLACE 0
#define MPIX_OFFLOAD_PTHREAD 1
#define MPIX_OFFLOAD_CUDA 2
#define MPIX_OFFLOAD_HIP 3
#define MPIX_OFFLOAD_NITRO 4

/* error class of calls refused on a failed stream (registered at
 * initialization: not a constant expression) */
OMPI_DECLSPEC extern int ompi_mpix_err_stream_failed;
#define MPIX_ERR_STREAM_FAILED ompi_mpix_err_stream_failed

typedef int(MPIX_Graph_op_function)(MPIX_Graph graph, void *extra_state);

/* deferred operations */
OMPI_DECLSPEC int MPIX_Send_def(const void *buf, int count, MPI_Datatype datatype, int dest,
                                int tag, MPI_Comm comm, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Recv_def(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                                MPI_Comm comm, MPI_Status *status, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Sendrecv_def(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                    int dest, int sendtag, void *recvbuf, int recvcount,
                                    MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                                    MPI_Status *status, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Barrier_def(MPI_Comm comm, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Bcast_def(void *buffer, int count, MPI_Datatype datatype, int root,
                                 MPI_Comm comm, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Reduce_def(const void *sendbuf, void *recvbuf, int count,
                                  MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                                  MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Allreduce_def(const void *sendbuf, void *recvbuf, int count,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                     MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Op_def(MPIX_Graph_op_function *op, void *extra_state, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Copy_mem_def(void *dst, const void *src, MPI_Aint size,
                                    MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Alloc_mem_def(MPI_Aint size, MPI_Info info, void *baseptr,
                                     MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Free_mem_def(void *base, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_File_open_def(MPI_Comm comm, const char *filename, int amode, MPI_Info info,
                                     MPI_File *fh, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_File_close_def(MPI_File *fh, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_File_get_size_def(MPI_File fh, MPI_Offset *size, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_File_read_def(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                     MPI_Status *status, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_File_read_at_def(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                        MPI_Datatype datatype, MPI_Status *status, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_File_write_at_def(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                         MPI_Datatype datatype, MPI_Status *status, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_File_write_at_all_def(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                             MPI_Datatype datatype, MPI_Status *status, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_File_write_at_all_c_def(MPI_File fh, MPI_Offset offset, const void *buf,
                                               MPI_Count count, MPI_Datatype datatype, MPI_Status *status,
                                               MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Token_free(MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Copy_mem(void *dst, const void *src, MPI_Aint size);

/* execution */
OMPI_DECLSPEC int MPIX_Execute(MPIX_Token token, MPI_Info info, int loc_type, void *loc_info);
OMPI_DECLSPEC int MPIX_Iexecute(MPIX_Token token, MPI_Info info, int loc_type, void *loc_info,
                                MPI_Request *request);
OMPI_DECLSPEC int MPIX_Execute_init(MPIX_Token token, MPI_Info info, int loc_type,
                                    void *loc_info, MPI_Request *request);
OMPI_DECLSPEC int MPIX_Execute_get_error(MPI_Request request, int *errcode, int *op_id);

/* streams */
OMPI_DECLSPEC int MPIX_Stream_create(MPI_Session session, MPI_Info info, int loc_type,
                                     void *loc_info, MPIX_Stream *stream);
OMPI_DECLSPEC int MPIX_Stream_enqueue(MPIX_Stream stream, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Stream_pause(MPIX_Stream stream);
OMPI_DECLSPEC int MPIX_Stream_is_paused(MPIX_Stream stream, int *paused);
OMPI_DECLSPEC int MPIX_Stream_resume(MPIX_Stream stream);
OMPI_DECLSPEC int MPIX_Stream_sync(MPIX_Stream stream);
OMPI_DECLSPEC int MPIX_Stream_isync(MPIX_Stream stream, MPI_Request *request);
OMPI_DECLSPEC int MPIX_Stream_free(MPIX_Stream *stream);
OMPI_DECLSPEC int MPIX_Stream_dup(MPIX_Stream stream, MPI_Info info, MPIX_Stream *newstream);
OMPI_DECLSPEC int MPIX_Stream_get_error(MPIX_Stream stream, int *errcode, MPI_Count *position);

/* profiling twins */
OMPI_DECLSPEC int PMPIX_Send_def(const void *buf, int count, MPI_Datatype datatype, int dest,
                                 int tag, MPI_Comm comm, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Recv_def(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                                 MPI_Comm comm, MPI_Status *status, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Sendrecv_def(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                     int dest, int sendtag, void *recvbuf, int recvcount,
                                     MPI_Datatype recvtype, int source, int recvtag,
                                     MPI_Comm comm, MPI_Status *status, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Barrier_def(MPI_Comm comm, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Bcast_def(void *buffer, int count, MPI_Datatype datatype, int root,
                                  MPI_Comm comm, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Reduce_def(const void *sendbuf, void *recvbuf, int count,
                                   MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                                   MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Allreduce_def(const void *sendbuf, void *recvbuf, int count,
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                      MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Op_def(MPIX_Graph_op_function *op, void *extra_state, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Copy_mem_def(void *dst, const void *src, MPI_Aint size,
                                     MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Alloc_mem_def(MPI_Aint size, MPI_Info info, void *baseptr,
                                      MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Free_mem_def(void *base, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_File_open_def(MPI_Comm comm, const char *filename, int amode, MPI_Info info,
                                      MPI_File *fh, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_File_close_def(MPI_File *fh, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_File_get_size_def(MPI_File fh, MPI_Offset *size, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_File_read_def(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                      MPI_Status *status, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_File_read_at_def(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                         MPI_Datatype datatype, MPI_Status *status, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_File_write_at_def(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                          MPI_Datatype datatype, MPI_Status *status, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_File_write_at_all_def(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                              MPI_Datatype datatype, MPI_Status *status, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_File_write_at_all_c_def(MPI_File fh, MPI_Offset offset, const void *buf,
                                                MPI_Count count, MPI_Datatype datatype, MPI_Status *status,
                                                MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Token_free(MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Copy_mem(void *dst, const void *src, MPI_Aint size);
OMPI_DECLSPEC int PMPIX_Execute(MPIX_Token token, MPI_Info info, int loc_type, void *loc_info);
OMPI_DECLSPEC int PMPIX_Iexecute(MPIX_Token token, MPI_Info info, int loc_type, void *loc_info,
                                 MPI_Request *request);
OMPI_DECLSPEC int PMPIX_Execute_init(MPIX_Token token, MPI_Info info, int loc_type,
                                     void *loc_info, MPI_Request *request);
OMPI_DECLSPEC int PMPIX_Execute_get_error(MPI_Request request, int *errcode, int *op_id);
OMPI_DECLSPEC int PMPIX_Stream_create(MPI_Session session, MPI_Info info, int loc_type,
                                      void *loc_info, MPIX_Stream *stream);
OMPI_DECLSPEC int PMPIX_Stream_enqueue(MPIX_Stream stream, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Stream_pause(MPIX_Stream stream);
OMPI_DECLSPEC int PMPIX_Stream_is_paused(MPIX_Stream stream, int *paused);
OMPI_DECLSPEC int PMPIX_Stream_resume(MPIX_Stream stream);
OMPI_DECLSPEC int PMPIX_Stream_sync(MPIX_Stream stream);
OMPI_DECLSPEC int PMPIX_Stream_isync(MPIX_Stream stream, MPI_Request *request);
OMPI_DECLSPEC int PMPIX_Stream_free(MPIX_Stream *stream);
OMPI_DECLSPEC int PMPIX_Stream_dup(MPIX_Stream stream, MPI_Info info, MPIX_Stream *newstream);
OMPI_DECLSPEC int PMPIX_Stream_get_error(MPIX_Stream stream, int *errcode, MPI_Count *position);
