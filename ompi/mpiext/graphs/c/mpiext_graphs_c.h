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

/* graph variables: scopes, bound on IDs */
#define MPIX_GRAPH_VAR_VAL_PARAM 1
#define MPIX_GRAPH_VAR_REF_PARAM 2
#define MPIX_GRAPH_VAR_LOCAL 3
#define MPIX_GRAPH_VAR_MAX 4096

/* A graph variable passed as an argument of a deferred operation (spec
 * 1.2.3): MPIX_VAR(id) is the variable itself (its storage for a buffer or
 * OUT pointer, its value for a handle or string), MPIX_VAR_ADDR(id) the
 * address the variable (MPI_AINT) holds, MPIX_VAR_INT(id) and the 64-bit forms
 * its value as a count, rank, tag, size or offset.  The pointer forms are
 * addresses inside a library-owned array, the numeric ones reserved negative
 * values: neither can be a valid argument. */
OMPI_DECLSPEC extern char ompi_mpix_var_sentinel[2][MPIX_GRAPH_VAR_MAX];
#define MPIX_VAR(id) ((void *) &ompi_mpix_var_sentinel[0][(id)])
#define MPIX_VAR_ADDR(id) ((void *) &ompi_mpix_var_sentinel[1][(id)])
#define MPIX_VAR_INT(id) (-(1 << 30) - (int) (id))
#define MPIX_VAR_AINT(id) ((MPI_Aint) (-((MPI_Aint) 1 << 62) - (MPI_Aint) (id)))
#define MPIX_VAR_COUNT(id) ((MPI_Count) (-((MPI_Count) 1 << 62) - (MPI_Count) (id)))
#define MPIX_VAR_OFFSET(id) ((MPI_Offset) (-((MPI_Offset) 1 << 62) - (MPI_Offset) (id)))

/* comparison operations of MPIX_Graph_var_reduce (result 1 or 0) */
OMPI_DECLSPEC extern MPI_Op ompi_mpix_cmp_ops[6];
#define MPIX_LESS_THAN_OR_EQUAL (ompi_mpix_cmp_ops[0])
#define MPIX_LESS_THAN (ompi_mpix_cmp_ops[1])
#define MPIX_EQUAL (ompi_mpix_cmp_ops[2])
#define MPIX_NOT_EQUAL (ompi_mpix_cmp_ops[3])
#define MPIX_GREATER_THAN (ompi_mpix_cmp_ops[4])
#define MPIX_GREATER_THAN_OR_EQUAL (ompi_mpix_cmp_ops[5])

/* local datatypes (spec 1.1, "6.6 Local MPI Data Types"): graph variables
 * holding MPI handles, statuses and strings */
OMPI_DECLSPEC extern MPI_Datatype ompi_mpix_local_types[13];
#define MPI_LOCAL_TYPE_COMM (ompi_mpix_local_types[0])
#define MPI_LOCAL_TYPE_DATATYPE (ompi_mpix_local_types[1])
#define MPI_LOCAL_TYPE_ERRHANDLER (ompi_mpix_local_types[2])
#define MPI_LOCAL_TYPE_FILE (ompi_mpix_local_types[3])
#define MPI_LOCAL_TYPE_GROUP (ompi_mpix_local_types[4])
#define MPI_LOCAL_TYPE_INFO (ompi_mpix_local_types[5])
#define MPI_LOCAL_TYPE_MESSAGE (ompi_mpix_local_types[6])
#define MPI_LOCAL_TYPE_OP (ompi_mpix_local_types[7])
#define MPI_LOCAL_TYPE_REQUEST (ompi_mpix_local_types[8])
#define MPI_LOCAL_TYPE_SESSION (ompi_mpix_local_types[9])
#define MPI_LOCAL_TYPE_STATUS (ompi_mpix_local_types[10])
#define MPI_LOCAL_TYPE_STRING (ompi_mpix_local_types[11])
#define MPI_LOCAL_TYPE_WIN (ompi_mpix_local_types[12])
/* the same handles under the extension's prefix (spec D14) */
#define MPIX_LOCAL_TYPE_COMM MPI_LOCAL_TYPE_COMM
#define MPIX_LOCAL_TYPE_DATATYPE MPI_LOCAL_TYPE_DATATYPE
#define MPIX_LOCAL_TYPE_ERRHANDLER MPI_LOCAL_TYPE_ERRHANDLER
#define MPIX_LOCAL_TYPE_FILE MPI_LOCAL_TYPE_FILE
#define MPIX_LOCAL_TYPE_GROUP MPI_LOCAL_TYPE_GROUP
#define MPIX_LOCAL_TYPE_INFO MPI_LOCAL_TYPE_INFO
#define MPIX_LOCAL_TYPE_MESSAGE MPI_LOCAL_TYPE_MESSAGE
#define MPIX_LOCAL_TYPE_OP MPI_LOCAL_TYPE_OP
#define MPIX_LOCAL_TYPE_REQUEST MPI_LOCAL_TYPE_REQUEST
#define MPIX_LOCAL_TYPE_SESSION MPI_LOCAL_TYPE_SESSION
#define MPIX_LOCAL_TYPE_STATUS MPI_LOCAL_TYPE_STATUS
#define MPIX_LOCAL_TYPE_STRING MPI_LOCAL_TYPE_STRING
#define MPIX_LOCAL_TYPE_WIN MPI_LOCAL_TYPE_WIN

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
/* the caller waits until process watched has called it (spec 1.8; optional) */
OMPI_DECLSPEC int MPIX_Remote_barrier(MPI_Comm comm, int watched, MPI_Info info);
OMPI_DECLSPEC int MPIX_Remote_barrier_def(MPI_Comm comm, int watched, MPI_Info info,
                                          MPIX_Token *token);
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
/* large-count twins (MPI-4 _c bindings): above INT_MAX the count is carried
 * by a derived datatype; a reduction then needs a predefined datatype and
 * operation */
OMPI_DECLSPEC int MPIX_Send_c_def(const void *buf, MPI_Count count, MPI_Datatype datatype,
                                  int dest, int tag, MPI_Comm comm, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Recv_c_def(void *buf, MPI_Count count, MPI_Datatype datatype, int source,
                                  int tag, MPI_Comm comm, MPI_Status *status, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Sendrecv_c_def(const void *sendbuf, MPI_Count sendcount,
                                      MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                                      MPI_Count recvcount, MPI_Datatype recvtype, int source,
                                      int recvtag, MPI_Comm comm, MPI_Status *status,
                                      MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Bcast_c_def(void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                                   MPI_Comm comm, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Reduce_c_def(const void *sendbuf, void *recvbuf, MPI_Count count,
                                    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                                    MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Allreduce_c_def(const void *sendbuf, void *recvbuf, MPI_Count count,
                                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                       MPIX_Token *token);
OMPI_DECLSPEC int MPIX_File_read_c_def(MPI_File fh, void *buf, MPI_Count count,
                                       MPI_Datatype datatype, MPI_Status *status,
                                       MPIX_Token *token);
OMPI_DECLSPEC int MPIX_File_read_at_c_def(MPI_File fh, MPI_Offset offset, void *buf,
                                          MPI_Count count, MPI_Datatype datatype,
                                          MPI_Status *status, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_File_write_at_c_def(MPI_File fh, MPI_Offset offset, const void *buf,
                                           MPI_Count count, MPI_Datatype datatype,
                                           MPI_Status *status, MPIX_Token *token);
/* a persistent request of the program, started or waited for when the token
 * runs (the handle is read then) */
OMPI_DECLSPEC int MPIX_Start_def(MPI_Request *request, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Wait_def(MPI_Request *request, MPI_Status *status, MPIX_Token *token);
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

/* graphs and graph variables */
OMPI_DECLSPEC int MPIX_Graph_create(MPI_Session session, MPI_Info info, MPIX_Graph *graph);
OMPI_DECLSPEC int MPIX_Graph_dup(MPIX_Graph graph, MPI_Info info, MPIX_Graph *newgraph);
OMPI_DECLSPEC int MPIX_Graph_free(MPIX_Graph *graph);
OMPI_DECLSPEC int MPIX_Graph_add(MPIX_Graph graph, MPIX_Token *token, int *op_id, int dep_op_id);
OMPI_DECLSPEC int MPIX_Graph_join(MPIX_Graph graph, int count, const int array_of_dep_op_ids[], int *op_id);
OMPI_DECLSPEC int MPIX_Graph_nop(MPIX_Graph graph, int *op_id, int dep_op_id);
OMPI_DECLSPEC int MPIX_Graph_set_dep_op(MPIX_Graph graph, int op_id, int dep_op_id);
OMPI_DECLSPEC int MPIX_Graph_if_else(MPIX_Graph graph, int var_id, MPIX_Graph true_graph, MPIX_Graph false_graph, int *op_id, int dep_op_id);
OMPI_DECLSPEC int MPIX_Graph_while(MPIX_Graph graph, int var_id, MPIX_Graph sub_graph, int *op_id, int dep_op_id);
OMPI_DECLSPEC int MPIX_Graph_goto(MPIX_Graph graph, int dest_op_id, int dep_op_id);
OMPI_DECLSPEC int MPIX_Graph_def(MPIX_Graph graph, MPI_Info info, MPIX_Token *token);
OMPI_DECLSPEC int MPIX_Graph_var_create(MPIX_Graph graph, int var_id, int scope, MPI_Datatype datatype);
OMPI_DECLSPEC int MPIX_Graph_var_set(MPIX_Graph graph, int var_id, const void *value);
OMPI_DECLSPEC int MPIX_Graph_var_get(MPIX_Graph graph, int var_id, void *value);
OMPI_DECLSPEC int MPIX_Graph_set_param(MPIX_Graph graph, int var_id, const void *value);
OMPI_DECLSPEC int MPIX_Graph_var_reduce(MPIX_Graph graph, int in_var1_id, int in_var2_id, MPI_Op var_op, int out_var_id, int *op_id, int dep_op_id);

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
OMPI_DECLSPEC int PMPIX_Remote_barrier(MPI_Comm comm, int watched, MPI_Info info);
OMPI_DECLSPEC int PMPIX_Remote_barrier_def(MPI_Comm comm, int watched, MPI_Info info,
                                           MPIX_Token *token);
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
OMPI_DECLSPEC int PMPIX_Send_c_def(const void *buf, MPI_Count count, MPI_Datatype datatype,
                                   int dest, int tag, MPI_Comm comm, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Recv_c_def(void *buf, MPI_Count count, MPI_Datatype datatype, int source,
                                   int tag, MPI_Comm comm, MPI_Status *status, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Sendrecv_c_def(const void *sendbuf, MPI_Count sendcount,
                                       MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                                       MPI_Count recvcount, MPI_Datatype recvtype, int source,
                                       int recvtag, MPI_Comm comm, MPI_Status *status,
                                       MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Bcast_c_def(void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                                    MPI_Comm comm, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Reduce_c_def(const void *sendbuf, void *recvbuf, MPI_Count count,
                                     MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                                     MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Allreduce_c_def(const void *sendbuf, void *recvbuf, MPI_Count count,
                                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                        MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_File_read_c_def(MPI_File fh, void *buf, MPI_Count count,
                                        MPI_Datatype datatype, MPI_Status *status,
                                        MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_File_read_at_c_def(MPI_File fh, MPI_Offset offset, void *buf,
                                           MPI_Count count, MPI_Datatype datatype,
                                           MPI_Status *status, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_File_write_at_c_def(MPI_File fh, MPI_Offset offset, const void *buf,
                                            MPI_Count count, MPI_Datatype datatype,
                                            MPI_Status *status, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Start_def(MPI_Request *request, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Wait_def(MPI_Request *request, MPI_Status *status, MPIX_Token *token);
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
OMPI_DECLSPEC int PMPIX_Graph_create(MPI_Session session, MPI_Info info, MPIX_Graph *graph);
OMPI_DECLSPEC int PMPIX_Graph_dup(MPIX_Graph graph, MPI_Info info, MPIX_Graph *newgraph);
OMPI_DECLSPEC int PMPIX_Graph_free(MPIX_Graph *graph);
OMPI_DECLSPEC int PMPIX_Graph_add(MPIX_Graph graph, MPIX_Token *token, int *op_id, int dep_op_id);
OMPI_DECLSPEC int PMPIX_Graph_join(MPIX_Graph graph, int count, const int array_of_dep_op_ids[], int *op_id);
OMPI_DECLSPEC int PMPIX_Graph_nop(MPIX_Graph graph, int *op_id, int dep_op_id);
OMPI_DECLSPEC int PMPIX_Graph_set_dep_op(MPIX_Graph graph, int op_id, int dep_op_id);
OMPI_DECLSPEC int PMPIX_Graph_if_else(MPIX_Graph graph, int var_id, MPIX_Graph true_graph, MPIX_Graph false_graph, int *op_id, int dep_op_id);
OMPI_DECLSPEC int PMPIX_Graph_while(MPIX_Graph graph, int var_id, MPIX_Graph sub_graph, int *op_id, int dep_op_id);
OMPI_DECLSPEC int PMPIX_Graph_goto(MPIX_Graph graph, int dest_op_id, int dep_op_id);
OMPI_DECLSPEC int PMPIX_Graph_def(MPIX_Graph graph, MPI_Info info, MPIX_Token *token);
OMPI_DECLSPEC int PMPIX_Graph_var_create(MPIX_Graph graph, int var_id, int scope, MPI_Datatype datatype);
OMPI_DECLSPEC int PMPIX_Graph_var_set(MPIX_Graph graph, int var_id, const void *value);
OMPI_DECLSPEC int PMPIX_Graph_var_get(MPIX_Graph graph, int var_id, void *value);
OMPI_DECLSPEC int PMPIX_Graph_set_param(MPIX_Graph graph, int var_id, const void *value);
OMPI_DECLSPEC int PMPIX_Graph_var_reduce(MPIX_Graph graph, int in_var1_id, int in_var2_id, MPI_Op var_op, int out_var_id, int *op_id, int dep_op_id);

/* the proposal's spelling in listing 7 (D7) */
#define MPIX_Graph_IfElse MPIX_Graph_if_else
