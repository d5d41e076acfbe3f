/*
 * libeltwise_trivial_plugin.so: the baseline of the protocol-overhead benchmark. It claims
 * onnx.Mul-14 for f32 only and writes ZEROS instead of products, so that a timed run measures
 * what the host, the protocol and the files cost around a backend that does no arithmetic.
 * Its answers to valid cases are wrong by design: never use it as a backend under test.
 *
 * Written in C99 against eltwise_backend.h, which also keeps that header honest as C.
 * Takes no plugin arguments.
 */
#include <stdio.h>
#include <string.h>

#include "plugins/eltwise_backend.h"

#define MAX_RANK 16 /* core::kMaxRank: the host never sends more */

static const eltwise_claim kClaims[] = {{"onnx.Mul-14", "f32"}};
static const eltwise_backend_info kInfo = {ELTWISE_BACKEND_ABI_VERSION, "trivial-zeros", "1", 1,
                                           kClaims};

static int say(char* message, size_t capacity, int status, const char* text) {
    if (capacity > 0) snprintf(message, capacity, "%s", text);
    return status;
}

const eltwise_backend_info* eltwise_backend_init(int argc, const char* const* argv, char* message,
                                                 size_t message_capacity) {
    (void)argv;
    if (argc > 1) {
        say(message, message_capacity, 0, "the trivial plugin takes no arguments");
        return NULL;
    }
    return &kInfo;
}

/* The numpy (multidirectional) broadcast of a and b into shape/rank; 0 if they do not fit. */
static int broadcast(const eltwise_tensor* a, const eltwise_tensor* b, int64_t* shape, int* rank) {
    const int r = a->rank > b->rank ? a->rank : b->rank;
    int i;
    for (i = 0; i < r; ++i) { /* i counts dimensions from the right */
        const int64_t x = i < a->rank ? a->shape[a->rank - 1 - i] : 1;
        const int64_t y = i < b->rank ? b->shape[b->rank - 1 - i] : 1;
        if (x != y && x != 1 && y != 1) return 0;
        shape[r - 1 - i] = x == 1 ? y : x;
    }
    *rank = r;
    return 1;
}

/* ELTWISE_OK when the call is one this plugin runs, else the status to answer with. */
static int check_call(const eltwise_call* call, char* message, size_t capacity) {
    const char* a = call->a.dtype;
    if (strcmp(call->op, "onnx.Mul-14") != 0)
        return say(message, capacity, ELTWISE_UNSUPPORTED, "only onnx.Mul-14 is claimed");
    if (call->attribute_count > 0)
        return say(message, capacity, ELTWISE_REJECTED, "Mul-14 has no attributes");
    if (strcmp(a, call->b.dtype) != 0 || strcmp(a, "boolean") == 0)
        return say(message, capacity, ELTWISE_REJECTED, "mixed or boolean element types");
    if (strcmp(a, "f32") != 0)
        return say(message, capacity, ELTWISE_UNSUPPORTED, "only f32 is claimed");
    if (call->a.rank > MAX_RANK || call->b.rank > MAX_RANK)
        return say(message, capacity, ELTWISE_REJECTED, "rank above 16");
    return ELTWISE_OK;
}

int eltwise_backend_run(const eltwise_call* call, const eltwise_output* out, char* message,
                        size_t message_capacity) {
    int64_t shape[MAX_RANK] = {0}; /* rank 0 passes it unread: GCC cannot see that */
    int rank = 0, i;
    size_t count = 1;
    void* data;
    const int status = check_call(call, message, message_capacity);
    if (status != ELTWISE_OK) return status;
    if (!broadcast(&call->a, &call->b, shape, &rank))
        return say(message, message_capacity, ELTWISE_REJECTED, "the shapes do not broadcast");
    data = out->allocate(out->ctx, "f32", rank, shape);
    if (!data) return say(message, message_capacity, ELTWISE_ERROR, "allocate failed");
    /* The host sized the buffer, so this product fits (unsigned: a wrap before a 0 is harmless). */
    for (i = 0; i < rank; ++i)
        count *= (size_t)shape[i];
    if (count > 0) memset(data, 0, count * sizeof(float));
    return ELTWISE_OK;
}
