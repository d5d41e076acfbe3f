#include "comparison/output_comparison.hpp"

#include <array>
#include <bit>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "core/element_text.hpp"
#include "reference/divide.hpp"
#include "reference/multiply.hpp"

namespace comparison {
namespace {

// What one element comparison concluded: it passed (equal, within the ulp allowance, or as a
// flushed result), or it failed in one element category (Category's nan to value, checked in
// the order of backends/PROTOCOL.md section 11).
struct Outcome {
    enum class Pass : std::uint8_t { no, equal, ulp, ftz };
    Pass pass = Pass::no;
    Category failure = Category::value;
};
constexpr Outcome passed(Outcome::Pass how) {
    return {how, Category::value};
}
constexpr Outcome failed(Category c) {
    return {Outcome::Pass::no, c};
}

// What the classifiers need to know about the call besides the four elements.
struct OpContext {
    bool multiply;
    core::IntegerRounding rounding;
    const ComparisonPolicy& policy;
};

// ---------------------------------------------------------------------------------------------
// Floats, on their encodings: classification never converts through another type, so NaN
// payloads, signed zeros and subnormals are seen exactly as the backend wrote them.

template <class T>
struct FloatLayout;
template <>
struct FloatLayout<core::Half> {
    using Bits = std::uint16_t;
    static constexpr int kMantissa = 10;
    static Bits bits(core::Half v) { return v.bits; }
    static core::Half from(Bits b) { return core::Half{b}; }
};
template <>
struct FloatLayout<core::BFloat16> {
    using Bits = std::uint16_t;
    static constexpr int kMantissa = 7;
    static Bits bits(core::BFloat16 v) { return v.bits; }
    static core::BFloat16 from(Bits b) { return core::BFloat16{b}; }
};
template <>
struct FloatLayout<float> {
    using Bits = std::uint32_t;
    static constexpr int kMantissa = 23;
    static Bits bits(float v) { return std::bit_cast<Bits>(v); }
    static float from(Bits b) { return std::bit_cast<float>(b); }
};
template <>
struct FloatLayout<double> {
    using Bits = std::uint64_t;
    static constexpr int kMantissa = 52;
    static Bits bits(double v) { return std::bit_cast<Bits>(v); }
    static double from(Bits b) { return std::bit_cast<double>(b); }
};

template <class T>
struct FloatBits : FloatLayout<T> {
    using Bits = typename FloatLayout<T>::Bits;
    static constexpr Bits kSign = static_cast<Bits>(Bits{1} << (8 * sizeof(Bits) - 1));
    static constexpr Bits kMagnitude = static_cast<Bits>(~kSign);
    static constexpr Bits kMinNormal = static_cast<Bits>(Bits{1} << FloatLayout<T>::kMantissa);
    static constexpr Bits kInf = static_cast<Bits>(kMagnitude & ~(kMinNormal - 1));

    static Bits magnitude(Bits b) { return static_cast<Bits>(b & kMagnitude); }
    static bool negative(Bits b) { return (b & kSign) != 0; }
    static bool is_nan(Bits b) { return magnitude(b) > kInf; }
    static bool is_inf(Bits b) { return magnitude(b) == kInf; }
    static bool is_zero(Bits b) { return magnitude(b) == 0; }
    static bool is_subnormal(Bits b) { return magnitude(b) != 0 && magnitude(b) < kMinNormal; }
    // A subnormal becomes the zero of its sign, as FTZ/DAZ hardware does.
    static T flush(T v) {
        const Bits b = FloatLayout<T>::bits(v);
        return is_subnormal(b) ? FloatLayout<T>::from(static_cast<Bits>(b & kSign)) : v;
    }
    // Distance in ordinals: encodings are monotonic in magnitude on each side of zero, and -0
    // and +0 are the same point. Magnitudes are below 2^63, so the sum cannot wrap.
    static std::uint64_t distance(Bits p, Bits q) {
        const std::uint64_t mp = magnitude(p), mq = magnitude(q);
        if (negative(p) == negative(q)) return mp > mq ? mp - mq : mq - mp;
        return mp + mq;
    }
};

template <class F>
bool same_float(typename F::Bits p, typename F::Bits q, NanPolicy nan) {
    return p == q || (nan == NanPolicy::any && F::is_nan(p) && F::is_nan(q));
}

// Neither NaN nor ±inf takes part (an overflow is not an inaccuracy), nor a sign-of-zero error.
template <class F>
bool within_ulp(typename F::Bits e, typename F::Bits act, int ulp) {
    if (ulp <= 0) return false;
    if (F::is_nan(e) || F::is_nan(act) || F::is_inf(e) || F::is_inf(act)) return false;
    if (F::is_zero(e) && F::is_zero(act)) return false;
    return F::distance(e, act) <= static_cast<std::uint64_t>(ulp);
}

// The result an FTZ/DAZ implementation gives: subnormal inputs and a subnormal result flushed.
template <class T>
bool matches_ftz(T act, T x, T y, const OpContext& op) {
    using F = FloatBits<T>;
    const T fx = F::flush(x), fy = F::flush(y);
    const T r =
        op.multiply ? reference::multiply(fx, fy) : reference::divide(fx, fy, op.rounding).value;
    return same_float<F>(F::bits(F::flush(r)), F::bits(act), op.policy.nan);
}

template <class T>
Category float_category(T e, T act, T x, T y) {
    using F = FloatBits<T>;
    const auto eb = F::bits(e), ab = F::bits(act);
    if (F::is_nan(eb) || F::is_nan(ab)) return Category::nan;
    if (F::is_zero(eb) && F::is_zero(ab)) return Category::signed_zero;
    if (F::is_zero(ab) &&
        (F::is_subnormal(eb) || F::is_subnormal(F::bits(x)) || F::is_subnormal(F::bits(y))))
        return Category::subnormal_flush;
    if (F::is_inf(eb) != F::is_inf(ab)) return Category::overflow;
    if (F::distance(eb, ab) == 1) return Category::rounding;
    return Category::value;
}

template <class T>
Outcome classify_float(T e, T act, T x, T y, const OpContext& op) {
    using F = FloatBits<T>;
    const auto eb = F::bits(e), ab = F::bits(act);
    if (same_float<F>(eb, ab, op.policy.nan)) return passed(Outcome::Pass::equal);
    if (within_ulp<F>(eb, ab, op.policy.ulp)) return passed(Outcome::Pass::ulp);
    if (op.policy.allow_ftz && matches_ftz(act, x, y, op)) return passed(Outcome::Pass::ftz);
    return failed(float_category(e, act, x, y));
}

// ---------------------------------------------------------------------------------------------
// Integers.

// The exact result clamped to T's range when it lies outside it, else false. Only a product
// or MIN / -1 can leave the range; __builtin_mul_overflow computes the exact product's fit
// without signed overflow, and an overflowing product clamps by the sign of the exact value.
template <class T>
bool saturated(T x, T y, bool multiply, T& clamped) {
    if (multiply) {
        T wrapped;
        if (!__builtin_mul_overflow(x, y, &wrapped)) return false;
        const bool negative = std::is_signed_v<T> && ((x < 0) != (y < 0));
        clamped = negative ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
        return true;
    }
    if constexpr (std::is_signed_v<T>) {
        if (x == std::numeric_limits<T>::min() && y == T(-1)) {
            clamped = std::numeric_limits<T>::max();  // the exact quotient is -MIN = MAX + 1
            return true;
        }
    }
    return false;
}

template <class T>
Category classify_integer(T act, T x, T y, const OpContext& op) {
    T clamped{};
    if (saturated(x, y, op.multiply, clamped) && clamped == act)
        return Category::integer_saturation;
    if (!op.multiply) {
        const reference::Quotient<T> q = reference::divide(x, y, core::other_rounding(op.rounding));
        if (!q.undefined && q.value == act) return Category::floor_vs_trunc;
    }
    return Category::value;
}

// Bit equality for the fast path: integers compare as values, floats as encodings.
template <class T>
bool same_bits(T p, T q) {
    if constexpr (std::is_integral_v<T>) {
        return p == q;
    } else {
        return FloatBits<T>::bits(p) == FloatBits<T>::bits(q);
    }
}

template <class T>
Outcome classify(T e, T act, T x, T y, const OpContext& op) {
    if constexpr (std::is_integral_v<T>) {
        return e == act ? passed(Outcome::Pass::equal) : failed(classify_integer(act, x, y, op));
    } else {
        return classify_float(e, act, x, y, op);
    }
}

// ---------------------------------------------------------------------------------------------
// Walking the output.

// The output's dims with size-1 dims dropped and neighbours merged where both inputs step
// through them as through one dim: fewer, longer rows for the walk, same visiting order.
struct Loop {
    std::array<std::int64_t, core::kMaxRank> dims{}, a{}, b{};
    std::size_t rank = 0;
};

Loop coalesce(const core::BroadcastPlan& plan) {
    Loop l;
    for (std::size_t d = 0; d < plan.output.size(); ++d) {
        const std::int64_t n = plan.output[d], sa = plan.a_strides[d], sb = plan.b_strides[d];
        if (n == 1) continue;
        const std::size_t k = l.rank;
        if (k > 0 && l.a[k - 1] == sa * n && l.b[k - 1] == sb * n) {
            l.dims[k - 1] *= n;
            l.a[k - 1] = sa;
            l.b[k - 1] = sb;
        } else {
            l.dims[k] = n;
            l.a[k] = sa;
            l.b[k] = sb;
            ++l.rank;
        }
    }
    return l;
}

// Calls f(first flat index, A offset, B offset, length, A step, B step) for each innermost row
// of the output: an odometer over the outer dims carrying the input offsets, no allocation.
template <class F>
void for_each_row(const core::BroadcastPlan& plan, F&& f) {
    if (core::element_count(plan.output) == 0) return;
    const Loop l = coalesce(plan);
    if (l.rank == 0)
        return f(std::int64_t{0}, std::int64_t{0}, std::int64_t{0}, std::int64_t{1},
                 std::int64_t{0}, std::int64_t{0});
    const std::size_t inner = l.rank - 1;
    std::array<std::int64_t, core::kMaxRank> index{};
    std::int64_t i = 0, a = 0, b = 0;
    for (;;) {
        f(i, a, b, l.dims[inner], l.a[inner], l.b[inner]);
        i += l.dims[inner];
        std::size_t d = inner;
        for (;;) {
            if (d == 0) return;
            --d;
            a += l.a[d];
            b += l.b[d];
            if (++index[d] < l.dims[d]) break;
            a -= index[d] * l.a[d];
            b -= index[d] * l.b[d];
            index[d] = 0;
        }
    }
}

// Undefined indices are ascending and queried in ascending order: one forward cursor.
class UndefinedCursor {
  public:
    explicit UndefinedCursor(const std::vector<std::int64_t>& v)
        : next_(v.data()), end_(v.data() + v.size()) {}
    bool contains(std::int64_t i) {
        while (next_ != end_ && *next_ < i)
            ++next_;
        return next_ != end_ && *next_ == i;
    }

  private:
    const std::int64_t* next_;
    const std::int64_t* end_;
};

struct Operands {
    const core::Tensor& a;
    const core::Tensor& b;
    const core::Tensor& expected;
    const core::TensorView& actual;
};

// Element i of a view as a one-element tensor, for the element text functions.
core::Tensor element_of(const core::TensorView& v, std::int64_t i) {
    const std::size_t size = core::byte_size(v.type);
    return core::TensorView{v.type, {1}, v.bytes.subspan(static_cast<std::size_t>(i) * size, size)}
        .copy();
}

std::string hex_bits(const core::Tensor& t, std::int64_t i) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%0*llx", static_cast<int>(2 * core::byte_size(t.type)),
                  static_cast<unsigned long long>(core::element_bits(t, i)));
    return buf;
}

Mismatch describe_element(const Operands& t, Category category, std::int64_t i, std::int64_t ia,
                          std::int64_t ib) {
    const core::Tensor actual = element_of(t.actual, i);
    Mismatch m{i,
               category,
               core::format_element(t.a, ia),
               core::format_element(t.b, ib),
               core::format_element(t.expected, i),
               core::format_element(actual, 0),
               {},
               {},
               {},
               {}};
    if (core::is_floating(t.expected.type)) {
        m.a_bits = hex_bits(t.a, ia);
        m.b_bits = hex_bits(t.b, ib);
        m.expected_bits = hex_bits(t.expected, i);
        m.actual_bits = hex_bits(actual, 0);
    }
    return m;
}

// Besides the first `limit` mismatches, the first few of every category, so that a category that
// starts late in a large output (an exhaustive16 block) still shows its own examples.
constexpr std::int64_t kFirstPerCategory = 3;

// Counts per outcome while walking; turned into Comparison's maps once at the end.
struct Tally {
    std::array<std::int64_t, kCategoryNames.size()> failures{};  // by Category
    std::int64_t within_ulp = 0, flushed = 0;                    // passed by an allowance
    std::vector<std::int64_t> declared;                          // per ComparisonPolicy::declared
    std::vector<Mismatch> first;
};

// Counts the element for every declared output that gives `act` at flat index i; false when
// none does.
template <class T>
bool explained(const std::vector<DeclaredOutput>& declared, std::size_t i, T act, NanPolicy nan,
               std::vector<std::int64_t>& counts) {
    bool any = false;
    for (std::size_t k = 0; k < declared.size(); ++k) {
        const T alt = declared[k].output.values<T>()[i];
        bool same;
        if constexpr (std::is_integral_v<T>) {
            same = alt == act;
        } else {
            using F = FloatBits<T>;
            same = same_float<F>(F::bits(alt), F::bits(act), nan);
        }
        counts[k] += same;
        any = any || same;
    }
    return any;
}

template <class T>
Tally compare_elements(const core::PreparedCall& call, const Operands& t,
                       const std::vector<std::int64_t>& undefined, const OpContext& op,
                       std::size_t limit) {
    const auto x = t.a.values<T>(), y = t.b.values<T>();
    const auto e = t.expected.values<T>(), act = t.actual.values<T>();
    UndefinedCursor skip(undefined);
    Tally tally;
    tally.declared.assign(op.policy.declared.size(), 0);
    for_each_row(call.plan, [&](std::int64_t i0, std::int64_t a0, std::int64_t b0,
                                std::int64_t length, std::int64_t sa, std::int64_t sb) {
        const auto row = static_cast<std::size_t>(i0);
        if (std::memcmp(&e[row], &act[row], static_cast<std::size_t>(length) * sizeof(T)) == 0)
            return;
        for (std::int64_t j = 0; j < length; ++j) {
            const std::int64_t i = i0 + j;
            const auto ui = static_cast<std::size_t>(i);
            if (same_bits(e[ui], act[ui]) || skip.contains(i)) continue;
            const std::int64_t ia = a0 + j * sa, ib = b0 + j * sb;
            const Outcome o = classify(e[ui], act[ui], x[static_cast<std::size_t>(ia)],
                                       y[static_cast<std::size_t>(ib)], op);
            if (o.pass != Outcome::Pass::no) {
                tally.within_ulp += o.pass == Outcome::Pass::ulp;
                tally.flushed += o.pass == Outcome::Pass::ftz;
                continue;
            }
            if (explained(op.policy.declared, ui, act[ui], op.policy.nan, tally.declared)) continue;
            const std::int64_t seen = tally.failures[static_cast<std::size_t>(o.failure)]++;
            if (tally.first.size() < limit || seen < kFirstPerCategory)
                tally.first.push_back(describe_element(t, o.failure, i, ia, ib));
        }
    });
    return tally;
}

Comparison to_comparison(Tally tally, const std::vector<DeclaredOutput>& declared) {
    Comparison c;
    for (std::size_t k = 0; k < declared.size(); ++k)
        if (tally.declared[k]) c.declared[declared[k].name] += tally.declared[k];
    for (std::size_t k = 0; k < tally.failures.size(); ++k)
        if (const std::int64_t n = tally.failures[k]) c.categories[static_cast<Category>(k)] = n;
    if (tally.within_ulp) c.allowances.insert("ulp");
    if (tally.flushed) c.allowances.insert("ftz");
    c.first = std::move(tally.first);
    return c;
}

// The largest offset the plan reads from an input, for the bounds check below.
std::int64_t last_offset(const core::Shape& output, const std::vector<std::int64_t>& strides) {
    std::int64_t offset = 0;
    for (std::size_t d = 0; d < output.size(); ++d)
        offset += (output[d] - 1) * strides[d];
    return offset;
}

void check_call(const core::PreparedCall& call, const core::Tensor& a, const core::Tensor& b,
                const core::Tensor& expected) {
    const auto& plan = call.plan;
    if (expected.type != call.type || a.type != call.type || b.type != call.type)
        throw std::invalid_argument("compare_output: a tensor's type differs from the call's");
    if (expected.shape != plan.output || expected.size() != core::element_count(plan.output))
        throw std::invalid_argument("compare_output: expected shape differs from the plan's");
    if (plan.a_strides.size() != plan.output.size() || plan.b_strides.size() != plan.output.size())
        throw std::invalid_argument("compare_output: plan strides do not match its rank");
    if (core::element_count(plan.output) == 0) return;
    if (last_offset(plan.output, plan.a_strides) >= a.size() ||
        last_offset(plan.output, plan.b_strides) >= b.size())
        throw std::invalid_argument("compare_output: an input is smaller than the plan reads");
}

Comparison header_mismatch(Category category, std::string expected, std::string actual) {
    Comparison c;
    c.categories[category] = 1;
    Mismatch m;
    m.index = -1;
    m.category = category;
    m.expected = std::move(expected);
    m.actual = std::move(actual);
    c.first.push_back(std::move(m));
    return c;
}

}  // namespace

bool same_element(core::ElementType t, std::uint64_t x, std::uint64_t y, NanPolicy nan) {
    return core::dispatch(t, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_integral_v<T>) {
            return x == y;
        } else {
            using F = FloatBits<T>;
            return same_float<F>(static_cast<typename F::Bits>(x), static_cast<typename F::Bits>(y),
                                 nan);
        }
    });
}

Comparison compare_output(const core::PreparedCall& call, const core::Tensor& a,
                          const core::Tensor& b, const core::OpOutput& expected,
                          const core::TensorView& actual, const ComparisonPolicy& policy,
                          std::size_t limit) {
    check_call(call, a, b, expected.value);
    if (actual.shape != expected.value.shape)
        return header_mismatch(Category::shape, core::to_string(expected.value.shape),
                               core::to_string(actual.shape));
    if (actual.type != expected.value.type)
        return header_mismatch(Category::dtype, std::string(core::name(expected.value.type)),
                               std::string(core::name(actual.type)));
    if (actual.bytes.size() != expected.value.bytes.size())
        throw std::invalid_argument("compare_output: actual holds fewer bytes than its shape");
    // Fast path: identical bytes pass under every policy. memcmp, because vector<std::byte>'s ==
    // compares byte by byte (measured: 17% of an exhaustive16 sweep's time).
    if (actual.bytes.empty() ||
        std::memcmp(actual.bytes.data(), expected.value.bytes.data(), actual.bytes.size()) == 0)
        return {};
    const Operands t{a, b, expected.value, actual};
    const OpContext op{call.op->arithmetic == core::Arithmetic::multiply, call.config.rounding,
                       policy};
    return core::dispatch(call.type, [&](auto tag) -> Comparison {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, bool>) {
            throw std::invalid_argument("compare_output: boolean outputs do not exist");
        } else {
            return to_comparison(compare_elements<T>(call, t, expected.undefined, op, limit),
                                 policy.declared);
        }
    });
}

namespace {

std::string with_bits(const std::string& text, const std::string& bits) {
    return bits.empty() ? text : text + " (" + bits + ")";
}

std::string describe_mismatch(const Mismatch& m) {
    const std::string category(name(m.category));
    if (m.index < 0) return category + ": expected " + m.expected + ", actual " + m.actual;
    return "[" + std::to_string(m.index) + "] " + category + ": a=" + with_bits(m.a, m.a_bits) +
           " b=" + with_bits(m.b, m.b_bits) + " expected " +
           with_bits(m.expected, m.expected_bits) + ", actual " +
           with_bits(m.actual, m.actual_bits);
}

}  // namespace

std::string describe(const Comparison& c) {
    std::string out;
    std::int64_t total = 0;
    for (const auto& [category, count] : c.categories) {
        out += (out.empty() ? "" : " ") + std::string(name(category)) + ":" + std::to_string(count);
        total += count;
    }
    if (c.passed()) out = "passed";
    if (!c.declared.empty()) {
        out += c.passed() ? " (declared:" : " (part declared:";
        for (const auto& [name, count] : c.declared)
            out += " " + name + ":" + std::to_string(count);
        out += ")";
    }
    if (!c.allowances.empty()) {
        out += " (allowed:";
        for (const std::string& a : c.allowances)
            out += " " + a;
        out += ")";
    }
    for (const Mismatch& m : c.first)
        out += "\n  " + describe_mismatch(m);
    const auto shown = static_cast<std::int64_t>(c.first.size());
    if (total > shown) out += "\n  ... and " + std::to_string(total - shown) + " more";
    return out;
}

}  // namespace comparison
