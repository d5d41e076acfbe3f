/*
 * eltwise_backend.h: the C ABI of a native element-wise backend (a "plugin"), version 1.
 *
 * A plugin is a shared library that `eltwise-backend-host PLUGIN.so [PLUGIN ARGS...]` loads
 * with dlopen(RTLD_NOW | RTLD_LOCAL). The host speaks the eltwise-backend/1 protocol
 * (backends/PROTOCOL.md) on the plugin's behalf: it turns the plugin's claims into the hello,
 * maps each request's input .npy files into memory (no copy), calls the plugin once per
 * request, and delivers the output from the buffer that the allocate callback below lends the
 * plugin: memory the validator shares with the host when it offers it (PROTOCOL.md section 9,
 * item 17: the validator then compares the output where the plugin wrote it), else a buffer the
 * host writes to the output file.
 *
 * Exports (C linkage, default visibility; ELTWISE_BACKEND_EXPORT does both):
 *   eltwise_backend_init      required  once, before anything else
 *   eltwise_backend_run       required  once per request
 *   eltwise_backend_shutdown  optional  once, when the host's stdin closes
 *
 * Threading: the host calls every export from one thread, one call at a time; a plugin may use
 * threads of its own inside a call, but none may touch a call's buffers after run returns.
 *
 * Element types are named by their suite names: "i8" "i16" "i32" "i64" "u8" "u16" "u32" "u64"
 * "f16" "bf16" "f32" "f64", plus "boolean" (one byte, 0 or 1), which invalid cases may send.
 * Elements are stored in host byte order (little-endian on every supported host); f16 is IEEE
 * binary16 and bf16 the top 16 bits of an IEEE binary32, both as raw uint16_t bits.
 * Tensors are dense and row-major (C order): the last dimension varies fastest. A rank-0 tensor
 * is a scalar holding one element.
 *
 * This header compiles as C99 and as C++.
 */
#ifndef ELTWISE_BACKEND_H
#define ELTWISE_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#define ELTWISE_BACKEND_ABI_VERSION 1

#ifdef __cplusplus
#define ELTWISE_BACKEND_EXTERN_C extern "C"
#else
#define ELTWISE_BACKEND_EXTERN_C
#endif
/* Plugins may build with -fvisibility=hidden: the exports stay visible through this macro. */
#define ELTWISE_BACKEND_EXPORT ELTWISE_BACKEND_EXTERN_C __attribute__((visibility("default")))

/* What eltwise_backend_run returns; each maps to the protocol status of the same name. */
#define ELTWISE_OK 0 /* the output was allocated and filled */
#define ELTWISE_REJECTED                                                                        \
    1                         /* the inputs are invalid for this op version (bad shape, type or \
                                 attribute), as the op's specification says */
#define ELTWISE_UNSUPPORTED 2 /* valid inputs the plugin cannot run although it claims the op */
#define ELTWISE_ERROR 3       /* anything else went wrong (e.g. allocate returned NULL) */

/* One claim: an op-version id exactly as `eltwise-validate list` prints it ("onnx.Mul-14",
 * "openvino.Divide-1") and the element types claimed for it, space-separated ("f32 f64 i32").
 * The validator sends valid cases only for claimed (op version, type) pairs. */
typedef struct eltwise_claim {
    const char* op;
    const char* dtypes;
} eltwise_claim;

/* What the plugin is. Owned by the plugin; it and every string it points to must stay valid
 * and unchanged until eltwise_backend_shutdown returns (or the process exits). */
typedef struct eltwise_backend_info {
    int abi_version;             /* ELTWISE_BACKEND_ABI_VERSION the plugin was built against */
    const char* name;            /* the backend's name for reports, e.g. "optimized" */
    const char* version;         /* its version, free text, may be "" */
    size_t claim_count;          /* number of entries in claims */
    const eltwise_claim* claims; /* an op may appear more than once: the types are merged */
} eltwise_backend_info;

/* One attribute as text, spelled as in the op-version table ("auto_broadcast" = "numpy").
 * Attributes absent from a call take their defaults. */
typedef struct eltwise_attribute {
    const char* name;
    const char* value;
} eltwise_attribute;

/* One input tensor. Everything it points to is owned by the host, read-only, and valid only
 * until eltwise_backend_run returns: a plugin that needs the data later must copy it. */
typedef struct eltwise_tensor {
    const char* dtype;    /* an element type name, see above */
    int rank;             /* number of dimensions, 0 for a scalar */
    const int64_t* shape; /* rank dimensions, each >= 0 */
    const void* data;     /* byte_size bytes, row-major, aligned to the element size; when
                             byte_size is 0 it must not be dereferenced */
    size_t byte_size;     /* element count x element size, as the host checked */
} eltwise_tensor;

/* One call: what a protocol request asks for. Owned by the host, valid during the call only. */
typedef struct eltwise_call {
    int64_t id;                          /* the request id, for the plugin's own logs only */
    const char* op;                      /* an op-version id; always one of the suite's,
                                            though not necessarily one the plugin claimed */
    size_t attribute_count;              /* number of entries in attributes */
    const eltwise_attribute* attributes; /* distinct names, in no particular order */
    eltwise_tensor a;                    /* first input */
    eltwise_tensor b;                    /* second input */
} eltwise_call;

/* The host's output allocator. `dtype` names the output's element type, `shape` holds `rank`
 * dimensions (rank 0..16). Returns a writable buffer of exactly element count x element size
 * bytes (aligned to 64 bytes; not dereferenceable when that is 0), or NULL when the type name,
 * rank or shape is invalid, the size overflows, memory runs out, or allocate was already
 * called during this call (at most once per call). The plugin writes every element into the
 * buffer in row-major order and must not touch it after run returns. The host does not zero it
 * beforehand: it may hold an earlier call's output. */
typedef void* (*eltwise_allocate_fn)(void* ctx, const char* dtype, int rank, const int64_t* shape);

typedef struct eltwise_output {
    eltwise_allocate_fn allocate;
    void* ctx; /* pass it back to allocate unchanged */
} eltwise_output;

/* Called once, first. argv[0] is the plugin's path as given to the host, argv[1..argc-1] are
 * the plugin arguments that followed it on the host's command line (argv[argc] is NULL); all
 * are valid during this call only. Returns the plugin's info, or NULL on failure after writing
 * a NUL-terminated reason into `message` (at most message_capacity bytes, truncated). */
ELTWISE_BACKEND_EXPORT const eltwise_backend_info* eltwise_backend_init(int argc,
                                                                        const char* const* argv,
                                                                        char* message,
                                                                        size_t message_capacity);

/* Runs one call. On ELTWISE_OK the plugin has called out->allocate exactly once and filled the
 * buffer; the host answers with the allocated element type (which need not be the inputs').
 * Any other status may leave an allocated buffer partly written: the host discards it. For
 * REJECTED, UNSUPPORTED and ERROR the plugin writes a NUL-terminated reason into `message`
 * (message_capacity >= 256 bytes; truncate longer text). Must not call exit() or longjmp out;
 * a crash or hang is reported against the plugin. Must keep no state between calls that
 * changes later answers (caches are fine). */
ELTWISE_BACKEND_EXPORT int eltwise_backend_run(const eltwise_call* call, const eltwise_output* out,
                                               char* message, size_t message_capacity);

/* Optional. Called once when the host's stdin closes, after the last run. */
ELTWISE_BACKEND_EXPORT void eltwise_backend_shutdown(void);

/* The exports' types and names, for dlsym. */
typedef const eltwise_backend_info* (*eltwise_backend_init_fn)(int, const char* const*, char*,
                                                               size_t);
typedef int (*eltwise_backend_run_fn)(const eltwise_call*, const eltwise_output*, char*, size_t);
typedef void (*eltwise_backend_shutdown_fn)(void);
#define ELTWISE_BACKEND_INIT_SYMBOL "eltwise_backend_init"
#define ELTWISE_BACKEND_RUN_SYMBOL "eltwise_backend_run"
#define ELTWISE_BACKEND_SHUTDOWN_SYMBOL "eltwise_backend_shutdown"

#endif /* ELTWISE_BACKEND_H */
