/*
 * libmy_plugin.so: a backend project's own plugin, as a consumer of the installed suite writes
 * it. It claims onnx.Mul-14 and onnx.Div-14 for f32, numpy broadcasting, and nothing else.
 * Built with -DPLANT_BUG (cmake -DPLANT_BUG=ON), Div computes a * (1 / b): one rounding too
 * many, a bug real libraries ship, which the conformance tests must catch.
 */
#include <stdio.h>
#include <string.h>

#include <eltwise_backend.h>

#define MAX_RANK 16 /* the suite's maximal rank */

static const eltwise_claim kClaims[] = {{"onnx.Mul-14", "f32"}, {"onnx.Div-14", "f32"}};
static const eltwise_backend_info kInfo = {ELTWISE_BACKEND_ABI_VERSION, "my-plugin", "1.0",
                                           sizeof kClaims / sizeof kClaims[0], kClaims};

static int answer(char* message, size_t capacity, int status, const char* text) {
    if (capacity > 0) snprintf(message, capacity, "%s", text);
    return status;
}

ELTWISE_BACKEND_EXPORT const eltwise_backend_info* eltwise_backend_init(int argc,
                                                                        const char* const* argv,
                                                                        char* message,
                                                                        size_t message_capacity) {
    (void)argv;
    if (argc > 1) {
        answer(message, message_capacity, 0, "my_plugin takes no arguments");
        return NULL;
    }
    return &kInfo;
}

/* The broadcast shape of a and b (numpy rule) into shape and *rank; 0 when they do not fit. */
static int broadcast_shape(const eltwise_tensor* a, const eltwise_tensor* b, int64_t* shape,
                           int* rank) {
    const int r = a->rank > b->rank ? a->rank : b->rank;
    int d;
    for (d = 0; d < r; ++d) { /* aligned on the right */
        const int ka = d - (r - a->rank), kb = d - (r - b->rank);
        const int64_t x = ka >= 0 ? a->shape[ka] : 1, y = kb >= 0 ? b->shape[kb] : 1;
        if (x != y && x != 1 && y != 1) return 0;
        shape[d] = x == 1 ? y : x;
    }
    *rank = r;
    return 1;
}

/* Element strides of t inside the output shape: 0 along dimensions that t broadcasts. */
static void broadcast_strides(const eltwise_tensor* t, int rank, int64_t* strides) {
    int64_t stride = 1;
    int d;
    for (d = rank - 1; d >= 0; --d) {
        const int k = d - (rank - t->rank);
        const int64_t extent = k >= 0 ? t->shape[k] : 1;
        strides[d] = extent == 1 ? 0 : stride;
        stride *= extent;
    }
}

static float divide(float x, float y) {
#ifdef PLANT_BUG
    return x * (1.0f / y);
#else
    return x / y;
#endif
}

ELTWISE_BACKEND_EXPORT int eltwise_backend_run(const eltwise_call* call, const eltwise_output* out,
                                               char* message, size_t message_capacity) {
    int64_t shape[MAX_RANK] = {0}, index[MAX_RANK] = {0}, sa[MAX_RANK], sb[MAX_RANK];
    int64_t count = 1, n, ia = 0, ib = 0;
    int rank = 0, d, is_div;
    const float *x, *y;
    float* z;

    is_div = strcmp(call->op, "onnx.Div-14") == 0;
    if (!is_div && strcmp(call->op, "onnx.Mul-14") != 0)
        return answer(message, message_capacity, ELTWISE_UNSUPPORTED, "op version not claimed");
    /* Invalid for the op version whatever the type: rejected, as the spec says. */
    if (call->attribute_count > 0)
        return answer(message, message_capacity, ELTWISE_REJECTED,
                      "Mul-14/Div-14 have no attributes");
    if (strcmp(call->a.dtype, call->b.dtype) != 0 || strcmp(call->a.dtype, "boolean") == 0)
        return answer(message, message_capacity, ELTWISE_REJECTED, "mixed or boolean types");
    if (call->a.rank > MAX_RANK || call->b.rank > MAX_RANK ||
        !broadcast_shape(&call->a, &call->b, shape, &rank))
        return answer(message, message_capacity, ELTWISE_REJECTED, "shapes do not broadcast");
    if (strcmp(call->a.dtype, "f32") != 0)
        return answer(message, message_capacity, ELTWISE_UNSUPPORTED, "only f32 is implemented");

    z = out->allocate(out->ctx, "f32", rank, shape);
    if (!z) return answer(message, message_capacity, ELTWISE_ERROR, "allocate failed");
    for (d = 0; d < rank; ++d)
        count *= shape[d];
    if (count == 0) return ELTWISE_OK;
    broadcast_strides(&call->a, rank, sa);
    broadcast_strides(&call->b, rank, sb);
    x = (const float*)call->a.data;
    y = (const float*)call->b.data;
    for (n = 0; n < count; ++n) {
        z[n] = is_div ? divide(x[ia], y[ib]) : x[ia] * y[ib];
        /* The next output index, last dimension fastest, moving both input offsets along. */
        for (d = rank - 1; d >= 0; --d) {
            ia += sa[d];
            ib += sb[d];
            if (++index[d] < shape[d]) break;
            ia -= sa[d] * shape[d];
            ib -= sb[d] * shape[d];
            index[d] = 0;
        }
    }
    return ELTWISE_OK;
}
