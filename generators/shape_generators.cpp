#include "generators/shape_generators.hpp"

#include <algorithm>

#include "generators/broadcast_model.hpp"

namespace generators {
namespace {

using core::BroadcastRule;
using core::Shape;

// The helpers below pick values with `*gen`, so they run only inside rc::gen::exec.

std::int64_t pick(std::int64_t lo, std::int64_t hi) {  // inclusive
    return *rc::gen::inRange<std::int64_t>(lo, hi + 1);
}

bool chance(int percent) {
    return *rc::gen::inRange(0, 100) < percent;
}

// Dims 1..4 whose product stays at most 64, and now and then one dim of size 0.
Shape small_dims(std::int64_t rank) {
    Shape s;
    std::int64_t budget = 64;
    for (std::int64_t i = 0; i < rank; ++i) {
        s.push_back(pick(1, std::min<std::int64_t>(4, budget)));
        budget /= s.back();
    }
    if (rank > 0 && chance(10)) s[static_cast<std::size_t>(pick(0, rank - 1))] = 0;
    return s;
}

Shape slice(const Shape& s, std::int64_t start, std::int64_t len) {
    return Shape(s.begin() + start, s.begin() + start + len);
}

Shape stretch_some(Shape s) {
    for (auto& d : s)
        if (chance(30)) d = 1;
    return s;
}

Shape with_leading_ones(std::int64_t count, const Shape& s) {
    Shape out(static_cast<std::size_t>(count), 1);
    out.insert(out.end(), s.begin(), s.end());
    return out;
}

std::int64_t rank(const Shape& s) {
    return static_cast<std::int64_t>(s.size());
}

// --- numpy: an output shape, then each input a suffix of it with some dims stretched to 1.
ShapeCase numpy_compatible(std::int64_t min_rank) {
    const std::int64_t r = pick(min_rank, 5);
    const Shape out = small_dims(r);
    const std::int64_t short_rank = pick(min_rank, r);
    const bool a_short = *rc::gen::arbitrary<bool>();
    const auto suffix = [&](std::int64_t n) { return stretch_some(slice(out, r - n, n)); };
    return {suffix(a_short ? short_rank : r), suffix(a_short ? r : short_rank), std::nullopt};
}

// Two aligned dims made different and both > 1.
ShapeCase numpy_near_miss() {
    ShapeCase s = numpy_compatible(1);
    const std::int64_t k = pick(1, std::min(rank(s.a), rank(s.b)));  // k-th dim from the right
    const std::int64_t x = pick(2, 4), y = x + pick(1, 2);
    s.a[s.a.size() - static_cast<std::size_t>(k)] = x;
    s.b[s.b.size() - static_cast<std::size_t>(k)] = y;
    if (*rc::gen::arbitrary<bool>()) std::swap(s.a, s.b);
    return s;
}

// --- none: identical shapes; a near miss changes one dim or prepends a 1 (rank differs).
ShapeCase none_compatible(std::int64_t min_rank) {
    const Shape a = small_dims(pick(min_rank, 5));
    return {a, a, std::nullopt};
}

ShapeCase none_near_miss() {
    const std::int64_t variant = pick(0, 2);
    ShapeCase s = none_compatible(variant == 0 ? 1 : 0);
    if (variant == 0) s.b[static_cast<std::size_t>(pick(0, rank(s.b) - 1))] += pick(1, 2);
    if (variant == 1) s.b = with_leading_ones(1, s.b);
    if (variant == 2) s.a = with_leading_ones(1, s.a);
    return s;
}

// --- pdpd: B is a run of A's dims (some stretched to 1) plus trailing 1s. The axis is left to
// its default, given as -1 (both mean rank(A) - rank(B) with B's rank as given), or explicit.
ShapeCase pdpd_compatible(std::int64_t min_len) {
    const std::int64_t ra = pick(min_len, 5);
    const Shape a = small_dims(ra);
    const std::int64_t len = pick(min_len, ra);
    const std::int64_t trailing = pick(0, std::min<std::int64_t>(2, ra - len));
    const std::int64_t form = pick(0, 2);  // 0: default axis, 1: axis=-1, 2: explicit start
    const std::int64_t start = form < 2 ? ra - len - trailing : pick(0, ra - len);
    Shape b = stretch_some(slice(a, start, len));
    b.insert(b.end(), static_cast<std::size_t>(trailing), 1);
    if (form == 0) return {a, b, std::nullopt};
    return {a, b, form == 1 ? -1 : start};
}

std::int64_t pdpd_start(const ShapeCase& s) {
    const std::int64_t axis = s.axis.value_or(-1);
    return axis == -1 ? rank(s.a) - rank(s.b) : axis;
}

std::int64_t trimmed_rank(const Shape& b) {
    std::int64_t n = rank(b);
    while (n > 0 && b[static_cast<std::size_t>(n - 1)] == 1)
        --n;
    return n;
}

ShapeCase pdpd_near_miss() {
    const std::int64_t variant = pick(0, 2);
    ShapeCase s = pdpd_compatible(variant == 0 ? 1 : 0);
    if (variant == 0) {  // a B dim neither 1 nor equal to A's (A dim 1 gets a B dim > 1)
        const std::int64_t start = pdpd_start(s);  // B dims from here on line up with A's
        const auto i =
            static_cast<std::size_t>(pick(0, std::min(rank(s.b), rank(s.a) - start) - 1));
        const std::int64_t a_dim = s.a[static_cast<std::size_t>(start) + i];
        s.b[i] = a_dim + (a_dim <= 1 ? 2 : 1);
    } else if (variant == 1) {  // B's kept dims run past A's last dim
        s.axis = rank(s.a) - trimmed_rank(s.b) + 1 + pick(0, 1);
    } else {  // rank(B) > rank(A), even though B's dims would line up with A's
        s.b = with_leading_ones(pick(1, 2), s.a);
    }
    return s;
}

// --- onnx_legacy: B has one element (rank <= rank(A)), or is a run of A's dims ending at A's
// end (no axis) or starting at the given axis.
ShapeCase legacy_compatible(std::int64_t min_len) {
    const std::int64_t ra = pick(min_len, 5);
    const Shape a = small_dims(ra);
    if (min_len == 0 && chance(25)) {
        const std::int64_t rb = pick(0, ra);
        const Shape b(static_cast<std::size_t>(rb), 1);
        if (*rc::gen::arbitrary<bool>()) return {a, b, std::nullopt};
        return {a, b, pick(0, ra - rb)};
    }
    const std::int64_t len = pick(min_len, ra);
    if (*rc::gen::arbitrary<bool>()) return {a, slice(a, ra - len, len), std::nullopt};
    const std::int64_t start = pick(0, ra - len);
    return {a, slice(a, start, len), start};
}

ShapeCase legacy_near_miss() {
    const std::int64_t variant = pick(0, 2);
    ShapeCase s = legacy_compatible(variant == 0 ? 1 : 0);
    if (variant == 0) {  // a B dim of 1 where A's is larger (no 1-dim expansion), or any mismatch
        const std::int64_t start = s.axis.value_or(rank(s.a) - rank(s.b));
        const auto i = static_cast<std::size_t>(pick(0, rank(s.b) - 1));
        const std::int64_t a_dim = s.a[static_cast<std::size_t>(start) + i];
        s.b[i] = a_dim > 1 ? 1 : a_dim + 2;
        if (elements(s.b) == 1) s.b[i] = a_dim + 1;  // one element would be valid: mismatch
    } else if (variant == 1) {                       // B's dims run past A's last dim
        s.axis = rank(s.a) - rank(s.b) + 1 + pick(0, 1);
    } else {  // rank(B) > rank(A): a one-element B, or A's shape with a leading 1
        s.b = chance(50) ? Shape(s.a.size() + 1, 1) : with_leading_ones(1, s.a);
        s.axis = std::nullopt;
    }
    return s;
}

// --- arbitrary: small dims, mostly 1..3, sometimes 0.
Shape arbitrary_dims() {
    Shape s(static_cast<std::size_t>(pick(0, 4)));
    // 40% 1, 30% 2, 20% 3, 10% 0; an inRange pick, so that dims shrink toward 1.
    for (auto& d : s) {
        const std::int64_t k = pick(0, 9);
        d = k < 4 ? 1 : k < 7 ? 2 : k < 9 ? 3 : 0;
    }
    return s;
}

std::optional<std::int64_t> arbitrary_axis(BroadcastRule rule) {
    if (!core::takes_axis(rule) || chance(30)) return std::nullopt;
    return pick(rule == BroadcastRule::pdpd ? -1 : 0,
                4);  // the smallest value each attribute allows
}

// Lengths around vector widths (8, 16, 32, 64 lanes) and tile / thread boundaries (4096, 65536).
// The first entry keeps the dim as it is; larger entries come later so that shrinking, which
// moves toward the front, makes the tensors small again.
constexpr std::int64_t kKernelLengths[] = {
    0,   7,   8,   9,   15,  16,   17,   31,   32,   33,   63,   64,    65,    127,
    128, 129, 255, 256, 257, 1023, 1024, 1025, 4095, 4096, 4097, 65535, 65536, 65537};

Shape replace_dim(Shape s, std::int64_t from, std::int64_t to) {
    for (auto& d : s)
        if (d == from) d = to;
    return s;
}

// In double, so that a product of large dims cannot overflow.
double product(const Shape& s) {
    double n = 1;
    for (std::int64_t d : s)
        n *= static_cast<double>(d);
    return n;
}

double output_elements(const ShapeCase& s, BroadcastRule rule) {
    Shape larger = s.a.size() >= s.b.size() ? s.a : s.b;  // numpy's output when valid, roughly
    const Shape& shorter = s.a.size() >= s.b.size() ? s.b : s.a;
    for (std::size_t i = 0; i < shorter.size(); ++i) {
        std::int64_t& d = larger[larger.size() - shorter.size() + i];
        d = std::max(d, shorter[i]);
    }
    return rule == BroadcastRule::numpy ? product(larger) : std::max(product(s.a), product(s.b));
}

ShapeCase scaled(ShapeCase s, BroadcastRule rule, std::int64_t max_elements) {
    if (rule == BroadcastRule::numpy && chance(20)) {  // rank 6 at most: 5 + 1
        Shape& longer = s.a.size() >= s.b.size() ? s.a : s.b;
        longer.insert(longer.begin(), 2);
    }
    Shape values;
    for (const Shape* shape : {&s.a, &s.b})
        for (std::int64_t d : *shape)
            if (d > 1) values.push_back(d);
    if (values.empty()) return s;
    const std::int64_t from = values[static_cast<std::size_t>(pick(0, rank(values) - 1))];
    std::int64_t fitting = 0;  // the last length whose output stays within max_elements
    for (std::size_t k = 1; k < std::size(kKernelLengths); ++k) {
        const ShapeCase t{replace_dim(s.a, from, kKernelLengths[k]),
                          replace_dim(s.b, from, kKernelLengths[k]), s.axis};
        if (output_elements(t, rule) > static_cast<double>(max_elements)) break;
        fitting = static_cast<std::int64_t>(k);
    }
    const std::int64_t to = kKernelLengths[static_cast<std::size_t>(pick(0, fitting))];
    if (to == 0) return s;
    return {replace_dim(s.a, from, to), replace_dim(s.b, from, to), s.axis};
}

}  // namespace

rc::Gen<ShapeCase> scaled_shapes(BroadcastRule rule, rc::Gen<ShapeCase> base,
                                 std::int64_t max_elements) {
    return rc::gen::exec([=] { return scaled(*base, rule, max_elements); });
}

std::string to_string(const ShapeCase& s) {
    std::string out = core::to_string(s.a) + " " + core::to_string(s.b);
    if (s.axis) out += " axis=" + std::to_string(*s.axis);
    return out;
}

rc::Gen<ShapeCase> compatible_shapes(BroadcastRule rule) {
    return rc::gen::exec([rule] {
        switch (rule) {
            case BroadcastRule::none:
                return none_compatible(0);
            case BroadcastRule::numpy:
                return numpy_compatible(0);
            case BroadcastRule::pdpd:
                return pdpd_compatible(0);
            case BroadcastRule::onnx_legacy:
                return legacy_compatible(0);
        }
        return none_compatible(0);
    });
}

rc::Gen<ShapeCase> near_miss_shapes(BroadcastRule rule) {
    return rc::gen::exec([rule] {
        switch (rule) {
            case BroadcastRule::none:
                return none_near_miss();
            case BroadcastRule::numpy:
                return numpy_near_miss();
            case BroadcastRule::pdpd:
                return pdpd_near_miss();
            case BroadcastRule::onnx_legacy:
                return legacy_near_miss();
        }
        return none_near_miss();
    });
}

rc::Gen<ShapeCase> arbitrary_shapes(BroadcastRule rule) {
    return rc::gen::exec([rule] {
        ShapeCase s{arbitrary_dims(), arbitrary_dims(), std::nullopt};
        s.axis = arbitrary_axis(rule);
        return s;
    });
}

}  // namespace generators
