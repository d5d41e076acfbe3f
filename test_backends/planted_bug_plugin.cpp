// libeltwise_planted_bug_plugin.so: a correct backend (optimized::run, every op version and
// type) with exactly one planted bug, the kind real backends ship, for testing that the
// validator finds and categorizes it. Everything the bug does not touch is bit-exact with the
// reference.
//
// Plugin arguments:  --bug NAME
//   saturate-u8         u8 Mul/Multiply products clamp to 255 instead of wrapping mod 256
//   ftz                 float inputs that are subnormal are read as zero (sign kept, like DAZ),
//                       float outputs that are subnormal become zero (sign kept, like FTZ)
//   f16-toward-zero     f16 results are rounded toward zero instead of to nearest even
//   lost-negative-zero  every -0 in a float output becomes +0
//   f16-ties-away-tiny  f16 products that are exact ties below 2^-19 (subnormals of at most 5
//                       significant bits) round half away from zero instead of to even: 4,224
//                       of the 2^32 pairs, about one in 2^20, for the exhaustive16 tests
//   x86-ftz             f32 and f64 results computed by SSE with MXCSR's FTZ and DAZ bits set
//                       (what TensorFlow does around CPU kernels): the hardware's own flush
//   x86-ftz-one-wrong   x86-ftz, and in every f32 Multiply output the last bit of element 0
//                       flipped when that element is a nonzero finite number
//   f32-ftz-bf16-truncated
//                       two behaviours at once, for triage: f32 results computed by SSE with
//                       MXCSR's FTZ and DAZ bits set (as x86-ftz, f32 only), and bf16 results
//                       computed in f32 and then truncated to their upper 16 bits (a conversion
//                       without rounding); every other type exact
//   i16-div-trap        an i16 division with the pair -32768 / -1 kills the process with
//                       SIGFPE, as x86's 16-bit idiv does (a backend's hand-written kernel)
#include <bit>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <xmmintrin.h>

#include "core/broadcast.hpp"
#include "optimized/run.hpp"
#include "plugins/abi_adapter.hpp"
#include "plugins/eltwise_backend.h"

namespace {

static_assert(std::endian::native == std::endian::little, "elements are read as little-endian");

enum class Bug {
    saturate_u8,
    ftz,
    f16_toward_zero,
    lost_negative_zero,
    f16_ties_away_tiny,
    i16_div_trap,
    x86_ftz,
    x86_ftz_one_wrong,
    f32_ftz_bf16_truncated
};

struct NamedBug {
    std::string_view name;
    Bug bug;
};
constexpr NamedBug kBugs[] = {{"saturate-u8", Bug::saturate_u8},
                              {"ftz", Bug::ftz},
                              {"f16-toward-zero", Bug::f16_toward_zero},
                              {"lost-negative-zero", Bug::lost_negative_zero},
                              {"f16-ties-away-tiny", Bug::f16_ties_away_tiny},
                              {"i16-div-trap", Bug::i16_div_trap},
                              {"x86-ftz", Bug::x86_ftz},
                              {"x86-ftz-one-wrong", Bug::x86_ftz_one_wrong},
                              {"f32-ftz-bf16-truncated", Bug::f32_ftz_bf16_truncated}};

Bug g_bug = Bug::saturate_u8;
plugins::CoreCall g_call;
core::OpOutput g_result;

// ---- floats as bits ----

struct FloatLayout {
    std::size_t size;
    std::uint64_t sign, exponent, mantissa;
};

std::optional<FloatLayout> float_layout(core::ElementType t) {
    switch (t) {
        case core::ElementType::f16:
            return FloatLayout{2, 0x8000, 0x7c00, 0x03ff};
        case core::ElementType::bf16:
            return FloatLayout{2, 0x8000, 0x7f80, 0x007f};
        case core::ElementType::f32:
            return FloatLayout{4, 0x8000'0000, 0x7f80'0000, 0x007f'ffff};
        case core::ElementType::f64:
            return FloatLayout{8, 0x8000'0000'0000'0000, 0x7ff0'0000'0000'0000,
                               0x000f'ffff'ffff'ffff};
        default:
            return std::nullopt;
    }
}

// Replaces the bits of every element of a float tensor by f(bits, layout); integers stay.
template <class F>
void rewrite_floats(core::Tensor& t, F f) {
    const auto layout = float_layout(t.type);
    if (!layout) return;
    for (std::size_t at = 0; at + layout->size <= t.bytes.size(); at += layout->size) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, t.bytes.data() + at, layout->size);
        bits = f(bits, *layout);
        std::memcpy(t.bytes.data() + at, &bits, layout->size);
    }
}

std::uint64_t flush_subnormal(std::uint64_t bits, const FloatLayout& l) {
    const bool subnormal = (bits & l.exponent) == 0 && (bits & l.mantissa) != 0;
    return subnormal ? bits & l.sign : bits;
}

std::uint64_t lose_negative_zero(std::uint64_t bits, const FloatLayout& l) {
    return bits == l.sign ? 0 : bits;
}

// ---- recomputing elements (core::for_each_offset walks the output) ----

void saturate_u8_products(const core::PreparedCall& call) {
    const auto x = g_call.a.values<std::uint8_t>();
    const auto y = g_call.b.values<std::uint8_t>();
    auto z = g_result.value.values<std::uint8_t>();
    core::for_each_offset(call.plan, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
        const unsigned product = unsigned{x[ia]} * unsigned{y[ib]};  // <= 65025: no overflow
        z[i] = static_cast<std::uint8_t>(product > 255 ? 255 : product);
    });
}

// Rounds toward zero: the nearest f16, stepped once toward zero when it lies farther from zero
// than x (that also turns an overflow to inf into the largest finite value).
core::Half half_toward_zero(double x) {
    const core::Half nearest = core::half_from_double(x);
    if (std::isnan(x) || std::fabs(double{core::to_float(nearest)}) <= std::fabs(x)) return nearest;
    return core::Half{static_cast<std::uint16_t>(nearest.bits - 1)};
}

// A product of two f16 values is exact in double (22 significant bits). A quotient is not, but
// lies at least ~2^-22 (relative) from every f16 value it does not equal, far beyond double's
// rounding error, so truncating the double quotient truncates the exact one.
void truncate_f16_results(const core::PreparedCall& call) {
    const auto x = g_call.a.values<core::Half>();
    const auto y = g_call.b.values<core::Half>();
    auto z = g_result.value.values<core::Half>();
    const bool multiply = call.op->arithmetic == core::Arithmetic::multiply;
    core::for_each_offset(call.plan, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
        const double p = core::to_float(x[ia]), q = core::to_float(y[ib]);
        z[i] = half_toward_zero(multiply ? p * q : p / q);
    });
}

// An exact product (double holds 22 significant bits) that lies halfway between two multiples
// of 2^-24, the f16 subnormal step, below 32 steps: rounded up in magnitude, where RNE picks the
// even multiple. Results above 32 steps are left as they are, so only candidates are recomputed.
void ties_away_tiny_products(const core::PreparedCall& call) {
    const auto x = g_call.a.values<core::Half>();
    const auto y = g_call.b.values<core::Half>();
    auto z = g_result.value.values<core::Half>();
    core::for_each_offset(call.plan, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
        if ((z[i].bits & 0x7fff) > 32) return;
        const double p = double{core::to_float(x[ia])} * double{core::to_float(y[ib])};
        const double steps = std::fabs(p) * 0x1p24;
        if (!(steps < 32) || steps - std::floor(steps) != 0.5) return;
        const auto away = static_cast<std::uint16_t>(std::floor(steps) + 1);
        z[i] = core::Half{static_cast<std::uint16_t>((std::signbit(p) ? 0x8000 : 0) | away)};
    });
}

// The quotient -32768 / -1 does not fit i16: the #DE trap of `idiv r16`, raised by hand.
void trap_on_i16_overflow(const core::PreparedCall& call) {
    const auto x = g_call.a.values<std::int16_t>();
    const auto y = g_call.b.values<std::int16_t>();
    core::for_each_offset(call.plan, [&](std::int64_t, std::int64_t ia, std::int64_t ib) {
        if (x[ia] == INT16_MIN && y[ib] == -1) std::raise(SIGFPE);
    });
}

// Every element recomputed by scalar SSE arithmetic; not inlined, so that the compiler cannot
// move it across the MXCSR writes around it.
template <class T>
__attribute__((noinline)) void compute_with_sse(const core::PreparedCall& call, bool multiply) {
    const auto x = g_call.a.values<T>();
    const auto y = g_call.b.values<T>();
    auto z = g_result.value.values<T>();
    core::for_each_offset(call.plan, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
        z[i] = multiply ? x[ia] * y[ib] : x[ia] / y[ib];
    });
}

// MXCSR bit 15 (FTZ: a tiny result becomes ±0) and bit 6 (DAZ: a subnormal operand reads as ±0).
constexpr unsigned kFtzDaz = 0x8040;

void x86_flush_to_zero(const core::PreparedCall& call) {
    const bool multiply = call.op->arithmetic == core::Arithmetic::multiply;
    const unsigned saved = _mm_getcsr();
    _mm_setcsr(saved | kFtzDaz);
    if (call.type == core::ElementType::f32) compute_with_sse<float>(call, multiply);
    if (call.type == core::ElementType::f64) compute_with_sse<double>(call, multiply);
    _mm_setcsr(saved);
}

// bf16 operands widened to f32 (exact), the f32 product or quotient rounded to nearest by the
// CPU, and its upper 16 bits kept: rounding toward zero (NaN stays NaN: an x86 NaN result keeps
// a quiet bit in the upper half).
__attribute__((noinline)) void truncate_bf16_results(const core::PreparedCall& call) {
    const auto x = g_call.a.values<core::BFloat16>();
    const auto y = g_call.b.values<core::BFloat16>();
    auto z = g_result.value.values<core::BFloat16>();
    const bool multiply = call.op->arithmetic == core::Arithmetic::multiply;
    const auto wide = [](core::BFloat16 v) {
        return std::bit_cast<float>(static_cast<std::uint32_t>(v.bits) << 16);
    };
    core::for_each_offset(call.plan, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
        const float p = wide(x[ia]), q = wide(y[ib]);
        const float r = multiply ? p * q : p / q;
        z[i] = core::BFloat16{static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(r) >> 16)};
    });
}

void flip_first_product_bit(const core::PreparedCall& call) {
    if (call.type != core::ElementType::f32 || call.op->arithmetic != core::Arithmetic::multiply)
        return;
    auto z = g_result.value.values<float>();
    if (z.empty() || z[0] == 0 || !std::isfinite(z[0])) return;
    z[0] = std::bit_cast<float>(std::bit_cast<std::uint32_t>(z[0]) ^ 1u);
}

// ---- the call ----

void plant_before(Bug bug) {
    if (bug != Bug::ftz) return;
    rewrite_floats(g_call.a, flush_subnormal);
    rewrite_floats(g_call.b, flush_subnormal);
}

void plant_after(Bug bug) {
    const auto prepared = [] {
        return core::prepare_call(*g_call.op, g_call.attributes, g_call.a, g_call.b);
    };
    const core::ElementType t = g_result.value.type;
    if (bug == Bug::saturate_u8 && t == core::ElementType::u8 &&
        g_call.op->arithmetic == core::Arithmetic::multiply)
        saturate_u8_products(prepared());
    if (bug == Bug::f16_toward_zero && t == core::ElementType::f16)
        truncate_f16_results(prepared());
    if (bug == Bug::f16_ties_away_tiny && t == core::ElementType::f16 &&
        g_call.op->arithmetic == core::Arithmetic::multiply)
        ties_away_tiny_products(prepared());
    if (bug == Bug::i16_div_trap && t == core::ElementType::i16 &&
        g_call.op->arithmetic == core::Arithmetic::divide)
        trap_on_i16_overflow(prepared());
    if (bug == Bug::ftz) rewrite_floats(g_result.value, flush_subnormal);
    if (bug == Bug::x86_ftz || bug == Bug::x86_ftz_one_wrong) x86_flush_to_zero(prepared());
    if (bug == Bug::x86_ftz_one_wrong) flip_first_product_bit(prepared());
    if (bug == Bug::f32_ftz_bf16_truncated && t == core::ElementType::f32)
        x86_flush_to_zero(prepared());
    if (bug == Bug::f32_ftz_bf16_truncated && t == core::ElementType::bf16)
        truncate_bf16_results(prepared());
    if (bug == Bug::lost_negative_zero) rewrite_floats(g_result.value, lose_negative_zero);
}

}  // namespace

const eltwise_backend_info* eltwise_backend_init(int argc, const char* const* argv, char* message,
                                                 size_t message_capacity) {
    if (argc == 3 && std::string_view(argv[1]) == "--bug")
        for (const NamedBug& b : kBugs)
            if (b.name == argv[2]) {
                g_bug = b.bug;
                return plugins::claim_whole_op_table("planted-bug", b.name.data());
            }
    plugins::write_message(
        message, message_capacity,
        "usage: --bug saturate-u8|ftz|f16-toward-zero|lost-negative-zero|f16-ties-away-tiny|"
        "i16-div-trap|x86-ftz|x86-ftz-one-wrong|f32-ftz-bf16-truncated");
    return nullptr;
}

int eltwise_backend_run(const eltwise_call* call, const eltwise_output* out, char* message,
                        size_t message_capacity) {
    return plugins::guarded(message, message_capacity, [&] {
        plugins::to_core(*call, g_call);
        plant_before(g_bug);
        optimized::run_into(*g_call.op, g_call.attributes, g_call.a, g_call.b, g_result);
        plant_after(g_bug);
        return plugins::deliver(*out, g_result.value, message, message_capacity);
    });
}
