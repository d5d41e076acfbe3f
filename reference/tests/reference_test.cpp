// Unit tests of the scalar reference: reference::run and the scalar reference::multiply /
// reference::divide. Every expected value comes from docs/SEMANTICS.md or from hand arithmetic
// written next to it, never from running the code under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "core/half_float.hpp"
#include "core/op_config.hpp"
#include "core/op_table.hpp"
#include "core/tensor.hpp"
#include "reference/divide.hpp"
#include "reference/multiply.hpp"
#include "reference/run.hpp"

namespace {

using core::AttributeMap;
using core::BFloat16;
using core::ElementType;
using core::ErrorKind;
using core::Half;
using core::IntegerRounding;
using core::OpVersion;
using core::Shape;
using core::Tensor;
using reference::run;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const AttributeMap kFloor{{"m_pythondiv", "true"}};
const AttributeMap kTrunc{{"m_pythondiv", "false"}};

// ---------------------------------------------------------------------------------------------
// Helpers

const OpVersion& op(std::string_view id) {
    const OpVersion* found = core::find_op_version(id);
    if (!found) throw std::logic_error("no op version " + std::string(id));
    return *found;
}

bool lists(const OpVersion& v, ElementType type) {
    return std::ranges::find(v.element_types, type) != v.element_types.end();
}

// Versions of one arithmetic whose table entry allows `type`.
std::vector<const OpVersion*> versions_with(core::Arithmetic arithmetic, ElementType type) {
    std::vector<const OpVersion*> out;
    for (const auto& v : core::op_versions())
        if (v.arithmetic == arithmetic && lists(v, type)) out.push_back(&v);
    return out;
}

// ONNX Div versions allowing `type` (they always truncate).
std::vector<const OpVersion*> onnx_divides_with(ElementType type) {
    std::vector<const OpVersion*> out;
    for (const OpVersion* v : versions_with(core::Arithmetic::divide, type))
        if (v->rounding == core::DivisionRounding::truncate) out.push_back(v);
    return out;
}

std::string trace(const OpVersion& v, ElementType type) {
    return v.id() + " " + std::string(core::name(type));
}

template <class T>
T from_double(double x) {
    if constexpr (std::is_same_v<T, Half>) {
        return core::half_from_double(x);
    } else if constexpr (std::is_same_v<T, BFloat16>) {
        return core::bfloat16_from_double(x);
    } else {
        return static_cast<T>(x);
    }
}

template <class T>
double to_double(T x) {
    if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
        return core::to_float(x);
    } else {
        return static_cast<double>(x);
    }
}

// A tensor of any type from values the test knows to be exact in that type.
Tensor tensor(ElementType type, Shape shape, const std::vector<double>& values) {
    Tensor t = Tensor::zeros(type, std::move(shape));
    if (t.size() != static_cast<std::int64_t>(values.size()))
        throw std::logic_error("tensor: value count does not match the shape");
    core::dispatch(type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        std::ranges::transform(values, t.values<T>().begin(), from_double<T>);
    });
    return t;
}

Tensor vec(ElementType type, const std::vector<double>& values) {
    return tensor(type, {static_cast<std::int64_t>(values.size())}, values);
}

std::vector<double> doubles(const Tensor& t) {
    return core::dispatch(t.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        std::vector<double> out;
        for (T v : t.values<T>())
            out.push_back(to_double(v));
        return out;
    });
}

std::vector<double> iota(std::int64_t n, double start) {
    std::vector<double> out;
    for (std::int64_t i = 0; i < n; ++i)
        out.push_back(start + static_cast<double>(i));
    return out;
}

template <ElementType T>
using V = std::vector<core::Storage<T>>;

template <ElementType T>
reference::Output run_typed(const OpVersion& v, const AttributeMap& attributes, const V<T>& a,
                            const V<T>& b) {
    const Shape shape{static_cast<std::int64_t>(a.size())};
    return run(v, attributes, core::make_tensor<T>(shape, a), core::make_tensor<T>(shape, b));
}

template <ElementType T>
V<T> values_of(const Tensor& t) {
    const auto span = t.values<core::Storage<T>>();
    return {span.begin(), span.end()};
}

template <ElementType T>
V<T> run_values(const OpVersion& v, const AttributeMap& attributes, const V<T>& a, const V<T>& b) {
    return values_of<T>(run_typed<T>(v, attributes, a, b).value);
}

// f16 / bf16 tensors written as bit patterns, and their results read back as bit patterns.
template <ElementType T>
std::vector<std::uint16_t> run_bits(const OpVersion& v, const std::vector<std::uint16_t>& a,
                                    const std::vector<std::uint16_t>& b) {
    V<T> x, y;
    for (auto bits : a)
        x.push_back({bits});
    for (auto bits : b)
        y.push_back({bits});
    std::vector<std::uint16_t> out;
    for (auto h : run_values<T>(v, {}, x, y))
        out.push_back(h.bits);
    return out;
}

template <class U, class F>
std::vector<U> bits_of(const std::vector<F>& values) {
    std::vector<U> out;
    for (F x : values)
        out.push_back(std::bit_cast<U>(x));
    return out;
}

// Equal as values, with NaN matching any NaN and the sign of zero checked.
testing::AssertionResult same_value(double actual, double expected) {
    const bool same = std::isnan(expected)
                          ? std::isnan(actual)
                          : actual == expected && std::signbit(actual) == std::signbit(expected);
    if (same) return testing::AssertionSuccess();
    return testing::AssertionFailure() << "got " << actual << ", expected " << expected;
}

void expect_same_values(const std::vector<double>& actual, const std::vector<double>& expected) {
    ASSERT_EQ(actual.size(), expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i)
        EXPECT_TRUE(same_value(actual[i], expected[i])) << "element " << i;
}

// run() throws core::Error of exactly `kind`.
testing::AssertionResult rejects(ErrorKind kind, const OpVersion& v, const AttributeMap& attributes,
                                 const Tensor& a, const Tensor& b) {
    try {
        run(v, attributes, a, b);
    } catch (const core::Error& e) {
        if (e.kind() == kind) return testing::AssertionSuccess();
        return testing::AssertionFailure()
               << v.id() << " raised kind " << core::name(e.kind()) << ": " << e.what();
    }
    return testing::AssertionFailure() << v.id() << " raised no core::Error";
}

std::vector<ElementType> floating_types() {
    std::vector<ElementType> out;
    for (const auto& t : core::kElementTypes)
        if (t.kind == core::Kind::floating) out.push_back(t.type);
    return out;
}

// ---------------------------------------------------------------------------------------------
// The op-version table: every version x every element type

TEST(ReferenceTable, EveryVersionComputesEveryAllowedType) {
    // Mul: [3,6]*[2,3] = [6,18]. Div: [6,18]/[3,6] = [2,3]. Exact in every type, bf16 included.
    const std::vector<double> mul_a{3, 6}, mul_b{2, 3}, mul_out{6, 18};
    const std::vector<double> div_a{6, 18}, div_b{3, 6}, div_out{2, 3};
    for (const auto& v : core::op_versions()) {
        ASSERT_FALSE(v.element_types.empty()) << v.id();
        const bool mul = v.arithmetic == core::Arithmetic::multiply;
        for (ElementType type : v.element_types) {
            SCOPED_TRACE(trace(v, type));
            const auto out =
                run(v, {}, vec(type, mul ? mul_a : div_a), vec(type, mul ? mul_b : div_b));
            EXPECT_EQ(out.value.type, type);
            EXPECT_EQ(out.value.shape, (Shape{2}));
            EXPECT_EQ(doubles(out.value), mul ? mul_out : div_out);
            EXPECT_TRUE(out.undefined.empty());
        }
    }
}

TEST(ReferenceTable, EveryTypeOutsideAVersionsListIsRejected) {
    for (const auto& v : core::op_versions()) {
        int rejected = 0;
        for (const auto& info : core::kElementTypes) {
            if (lists(v, info.type)) continue;
            SCOPED_TRACE(trace(v, info.type));
            EXPECT_TRUE(
                rejects(ErrorKind::element_type, v, {}, vec(info.type, {1}), vec(info.type, {1})));
            ++rejected;
        }
        EXPECT_GE(rejected, 1) << v.id() << ": boolean at least is outside every list";
    }
}

TEST(ReferenceTable, SpecNamedTypesAreRejected) {
    // docs/SEMANTICS.md section 1: "i8 for Mul-13, i32 for Mul-1, bf16 for Div-7".
    EXPECT_TRUE(rejects(ErrorKind::element_type, op("onnx.Mul-13"), {}, vec(ElementType::i8, {1}),
                        vec(ElementType::i8, {1})));
    EXPECT_TRUE(rejects(ErrorKind::element_type, op("onnx.Mul-1"), {}, vec(ElementType::i32, {1}),
                        vec(ElementType::i32, {1})));
    EXPECT_TRUE(rejects(ErrorKind::element_type, op("onnx.Div-7"), {}, vec(ElementType::bf16, {1}),
                        vec(ElementType::bf16, {1})));
}

TEST(ReferenceTable, BooleanIsRejected) {
    for (const auto& v : core::op_versions()) {
        const Tensor flag = vec(ElementType::boolean, {1});
        const Tensor other = vec(v.element_types.front(), {1});
        EXPECT_TRUE(rejects(ErrorKind::element_type, v, {}, flag, flag));
        EXPECT_TRUE(rejects(ErrorKind::element_type, v, {}, flag, other));
        EXPECT_TRUE(rejects(ErrorKind::element_type, v, {}, other, flag));
    }
}

TEST(ReferenceTable, MixedTypesAreRejected) {
    for (const auto& v : core::op_versions())
        for (ElementType a : v.element_types)
            for (ElementType b : v.element_types) {
                if (a == b) continue;
                SCOPED_TRACE(trace(v, a) + " with " + std::string(core::name(b)));
                EXPECT_TRUE(rejects(ErrorKind::element_type, v, {}, vec(a, {1}), vec(b, {1})));
            }
}

// ---------------------------------------------------------------------------------------------
// Integer multiply: the exact product modulo 2^N

// a*b elementwise through every multiply version allowing T, and through reference::multiply.
template <ElementType T>
void expect_products(const V<T>& a, const V<T>& b, const V<T>& expected) {
    for (std::size_t i = 0; i < a.size(); ++i)
        EXPECT_EQ(reference::multiply(a[i], b[i]), expected[i]) << "element " << i;
    const auto versions = versions_with(core::Arithmetic::multiply, T);
    ASSERT_FALSE(versions.empty());
    for (const OpVersion* v : versions) {
        SCOPED_TRACE(trace(*v, T));
        const auto out = run_typed<T>(*v, {}, a, b);
        EXPECT_EQ(values_of<T>(out.value), expected);
        EXPECT_TRUE(out.undefined.empty());
    }
}

TEST(ReferenceMultiplyWrap, U8) {
    // 200*2 = 400 = 144 + 256; 255*255 = 65025 = 254*256 + 1; 16*16 = 256 = 0; 15*17 = 255.
    expect_products<ElementType::u8>({200, 255, 16, 15}, {2, 255, 16, 17}, {144, 1, 0, 255});
}

TEST(ReferenceMultiplyWrap, I8) {
    // 100*2 = 200 - 256 = -56; -128*-1 = 128 - 256 = -128; -128*-128 = 16384 = 64*256 = 0;
    // 127*127 = 16129 = 63*256 + 1; -1*-1 = 1.
    expect_products<ElementType::i8>({100, -128, -128, 127, -1}, {2, -1, -128, 127, -1},
                                     {-56, -128, 0, 1, 1});
}

TEST(ReferenceMultiplyWrap, I16) {
    // 300*300 = 90000 - 65536 = 24464; -32768*-1 = 32768 - 65536 = -32768;
    // 32767^2 = 2^30 - 2^16 + 1 = 1 (mod 2^16); 256*128 = 2^15 = 32768 - 65536 = -32768.
    expect_products<ElementType::i16>({300, -32768, 32767, 256}, {300, -1, 32767, 128},
                                      {24464, -32768, 1, -32768});
}

TEST(ReferenceMultiplyWrap, U16) {
    // 65535^2 = 2^32 - 2^17 + 1 = 1 (mod 2^16); promoted to int this product would overflow int.
    // 300*300 = 90000 - 65536 = 24464; 256*256 = 2^16 = 0.
    expect_products<ElementType::u16>({65535, 300, 256}, {65535, 300, 256}, {1, 24464, 0});
}

TEST(ReferenceMultiplyWrap, I32) {
    constexpr std::int32_t max = std::numeric_limits<std::int32_t>::max();
    constexpr std::int32_t min = std::numeric_limits<std::int32_t>::min();
    // (2^31-1)*2 = 2^32 - 2 = -2; -2^31*-1 = 2^31 = -2^31; 2^16*2^16 = 2^32 = 0;
    // 46341^2 = 2147488281 = 2147488281 - 2^32 = -2147479015.
    expect_products<ElementType::i32>({max, min, 65536, 46341}, {2, -1, 65536, 46341},
                                      {-2, min, 0, -2147479015});
}

TEST(ReferenceMultiplyWrap, U32) {
    constexpr std::uint32_t max = std::numeric_limits<std::uint32_t>::max();
    // (2^32-1)^2 = 2^64 - 2^33 + 1 = 1; 2^16*2^16 = 0; 3e9*2 = 6e9 - 2^32 = 1705032704.
    expect_products<ElementType::u32>({max, 65536, 3000000000u}, {max, 65536, 2},
                                      {1, 0, 1705032704u});
}

TEST(ReferenceMultiplyWrap, I64) {
    constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t min = std::numeric_limits<std::int64_t>::min();
    constexpr std::int64_t two32 = std::int64_t{1} << 32;
    // -2^63*-1 = 2^63 = -2^63; (2^63-1)*2 = 2^64 - 2 = -2; 2^32*2^32 = 2^64 = 0;
    // (2^63-1)^2 = 2^126 - 2^64 + 1 = 1; (2^53+1)*1 stays exact (no detour through double);
    // (2^31+1)*(2^31-1) = 2^62 - 1 = 4611686018427387903.
    expect_products<ElementType::i64>({min, max, two32, max, 9007199254740993, 2147483649},
                                      {-1, 2, two32, max, 1, 2147483647},
                                      {min, -2, 0, 1, 9007199254740993, 4611686018427387903});
}

TEST(ReferenceMultiplyWrap, U64) {
    constexpr std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
    constexpr std::uint64_t two32 = std::uint64_t{1} << 32;
    // (2^64-1)^2 = 2^128 - 2^65 + 1 = 1; 2^32*2^32 = 0; (2^64-1)*2 = 2^65 - 2 = 2^64 - 2.
    expect_products<ElementType::u64>({max, two32, max}, {max, two32, 2}, {1, 0, max - 1});
}

// ---------------------------------------------------------------------------------------------
// Integer divide: rounding, MIN / -1, division by zero

template <class S>
bool negative(S x) {
    if constexpr (std::is_signed_v<S>) {
        return x < 0;
    } else {
        return false;  // unsigned
    }
}

// a = q*b + r with |r| < |b|; floor: r is 0 or has b's sign; truncation: r is 0 or has a's sign.
template <class S>
testing::AssertionResult satisfies_identity(S a, S b, IntegerRounding rounding) {
    const auto q = reference::divide(a, b, rounding);
    const __int128 r = static_cast<__int128>(a) - static_cast<__int128>(q.value) * b;
    const __int128 abs_r = r < 0 ? -r : r;
    const __int128 abs_b = negative(b) ? -static_cast<__int128>(b) : static_cast<__int128>(b);
    const S sign_source = rounding == IntegerRounding::floor ? b : a;
    const bool sign_ok = r == 0 || ((r < 0) == negative(sign_source));
    if (!q.undefined && abs_r < abs_b && sign_ok) return testing::AssertionSuccess();
    return testing::AssertionFailure() << std::to_string(a) << " / " << std::to_string(b)
                                       << " gave " << std::to_string(q.value);
}

// Dividends and divisors for the identity sweep: the extremes and the small values around 0.
template <class S>
std::vector<S> sweep_values() {
    using L = std::numeric_limits<S>;
    std::vector<S> out{L::min(),
                       static_cast<S>(L::min() + 1),
                       static_cast<S>(L::min() / 2),
                       static_cast<S>(L::max() / 2),
                       static_cast<S>(L::max() - 1),
                       L::max()};
    for (int x = -9; x <= 9; ++x)
        if (std::is_signed_v<S> || x >= 0) out.push_back(static_cast<S>(x));
    return out;
}

template <class S>
void expect_identities() {
    for (S a : sweep_values<S>())
        for (S b : sweep_values<S>()) {
            if (b == 0) continue;
            if (std::is_signed_v<S> && a == std::numeric_limits<S>::min() && b == S(-1)) continue;
            EXPECT_TRUE(satisfies_identity(a, b, IntegerRounding::floor));
            EXPECT_TRUE(satisfies_identity(a, b, IntegerRounding::truncate));
        }
}

// Typed-test names: the element type's name (i8, u64, ...).
struct TagName {
    template <class Tag>
    static std::string GetName(int) {
        return std::string(core::name(Tag::value));
    }
};

template <class Tag>
class SignedDivide : public testing::Test {};
using SignedTags = testing::Types<core::TypeTag<ElementType::i8>, core::TypeTag<ElementType::i16>,
                                  core::TypeTag<ElementType::i32>, core::TypeTag<ElementType::i64>>;
TYPED_TEST_SUITE(SignedDivide, SignedTags, TagName);

TYPED_TEST(SignedDivide, PythondivFloorsAndFalseTruncates) {
    constexpr ElementType T = TypeParam::value;
    const OpVersion& divide1 = op("openvino.Divide-1");
    // -7/2 = -3.5, 7/-2 = -3.5, -7/-2 = 3.5, 7/2 = 3.5.
    const V<T> a{-7, 7, -7, 7}, b{2, -2, -2, 2};
    const V<T> floor{-4, -4, 3, 3}, trunc{-3, -3, 3, 3};
    EXPECT_EQ(run_values<T>(divide1, kFloor, a, b), floor);
    EXPECT_EQ(run_values<T>(divide1, kTrunc, a, b), trunc);
    EXPECT_EQ(run_values<T>(divide1, {}, a, b), floor) << "m_pythondiv defaults to true";
    for (const OpVersion* v : onnx_divides_with(T))
        EXPECT_EQ(run_values<T>(*v, {}, a, b), trunc) << v->id() << " truncates";
}

TYPED_TEST(SignedDivide, MinByMinusOneWrapsToMin) {
    constexpr ElementType T = TypeParam::value;
    using S = typename TypeParam::type;
    constexpr S min = std::numeric_limits<S>::min(), max = std::numeric_limits<S>::max();
    // MIN/-1 = -MIN = MAX+1, which wraps to MIN; MIN/1 = MIN; MAX/-1 = -MAX fits.
    const V<T> a{min, min, max}, b{-1, 1, -1}, expected{min, min, static_cast<S>(-max)};
    for (auto rounding : {IntegerRounding::floor, IntegerRounding::truncate}) {
        const auto q = reference::divide(min, S(-1), rounding);
        EXPECT_EQ(q.value, min);
        EXPECT_FALSE(q.undefined);
    }
    for (const auto& attributes : {kFloor, kTrunc}) {
        const auto out = run_typed<T>(op("openvino.Divide-1"), attributes, a, b);
        EXPECT_EQ(values_of<T>(out.value), expected);
        EXPECT_TRUE(out.undefined.empty());
    }
    for (const OpVersion* v : onnx_divides_with(T))
        EXPECT_EQ(run_values<T>(*v, {}, a, b), expected) << v->id();
}

TYPED_TEST(SignedDivide, DivisionByZeroIsUndefinedExactlyThere) {
    constexpr ElementType T = TypeParam::value;
    using S = typename TypeParam::type;
    constexpr S min = std::numeric_limits<S>::min();
    // 5/0, MIN/0, 0/0 undefined; -7/2 = -3.5 (floor -4, trunc -3); 9/3 = 3.
    const V<T> a{5, min, 0, -7, 9}, b{0, 0, 0, 2, 3};
    const std::vector<std::int64_t> undefined{0, 1, 2};
    const auto floor = run_typed<T>(op("openvino.Divide-1"), kFloor, a, b);
    EXPECT_EQ(floor.undefined, undefined);
    EXPECT_EQ(values_of<T>(floor.value), (V<T>{0, 0, 0, -4, 3})) << "undefined slots hold 0";
    for (const OpVersion* v : onnx_divides_with(T)) {
        const auto trunc = run_typed<T>(*v, {}, a, b);
        EXPECT_EQ(trunc.undefined, undefined) << v->id();
        EXPECT_EQ(values_of<T>(trunc.value), (V<T>{0, 0, 0, -3, 3})) << v->id();
    }
    const auto trunc = run_typed<T>(op("openvino.Divide-1"), kTrunc, a, b);
    EXPECT_EQ(trunc.undefined, undefined);
    EXPECT_EQ(values_of<T>(trunc.value), (V<T>{0, 0, 0, -3, 3}));
}

TYPED_TEST(SignedDivide, QuotientsSatisfyTheDivisionIdentities) {
    expect_identities<typename TypeParam::type>();
}

template <class Tag>
class UnsignedDivide : public testing::Test {};
using UnsignedTags =
    testing::Types<core::TypeTag<ElementType::u8>, core::TypeTag<ElementType::u16>,
                   core::TypeTag<ElementType::u32>, core::TypeTag<ElementType::u64>>;
TYPED_TEST_SUITE(UnsignedDivide, UnsignedTags, TagName);

TYPED_TEST(UnsignedDivide, FloorAndTruncationAgree) {
    constexpr ElementType T = TypeParam::value;
    using S = typename TypeParam::type;
    constexpr S max = std::numeric_limits<S>::max();
    // 7/2 = 3; (2^N-1)/2 = 2^(N-1) - 1 (remainder 1); MAX/MAX = 1; 200/3 = 66 (remainder 2).
    const S half = static_cast<S>(S{1} << (8 * sizeof(S) - 1)) - S{1};
    const V<T> a{7, max, max, 200}, b{2, 2, max, 3}, expected{3, half, 1, 66};
    EXPECT_EQ(run_values<T>(op("openvino.Divide-1"), kFloor, a, b), expected);
    EXPECT_EQ(run_values<T>(op("openvino.Divide-1"), kTrunc, a, b), expected);
    for (const OpVersion* v : onnx_divides_with(T))
        EXPECT_EQ(run_values<T>(*v, {}, a, b), expected) << v->id();
}

TYPED_TEST(UnsignedDivide, DivisionByZeroIsUndefinedExactlyThere) {
    constexpr ElementType T = TypeParam::value;
    // 0/0 and 4/0 undefined; 9/3 = 3; 1/2 = 0.
    const V<T> a{0, 9, 4, 1}, b{0, 3, 0, 2};
    std::vector<const OpVersion*> versions = onnx_divides_with(T);
    versions.push_back(&op("openvino.Divide-1"));
    for (const OpVersion* v : versions) {
        const auto out = run_typed<T>(*v, {}, a, b);
        EXPECT_EQ(out.undefined, (std::vector<std::int64_t>{0, 2})) << v->id();
        EXPECT_EQ(values_of<T>(out.value), (V<T>{0, 3, 0, 0})) << v->id();
    }
}

TYPED_TEST(UnsignedDivide, QuotientsSatisfyTheDivisionIdentities) {
    expect_identities<typename TypeParam::type>();
}

TEST(ReferenceDivide, I8FullGridSatisfiesTheDivisionIdentities) {
    for (int a = -128; a <= 127; ++a)
        for (int b = -128; b <= 127; ++b) {
            if (b == 0 || (a == -128 && b == -1)) continue;
            const auto x = static_cast<std::int8_t>(a), y = static_cast<std::int8_t>(b);
            ASSERT_TRUE(satisfies_identity(x, y, IntegerRounding::floor));
            ASSERT_TRUE(satisfies_identity(x, y, IntegerRounding::truncate));
        }
}

TEST(ReferenceDivide, OpenVinoOwnI32Values) {
    // -10/-3 = 3.33; -10/3 = -3.33 (floor -4, trunc -3); 10/-3 = -3.33; 10/3 = 3.33.
    const V<ElementType::i32> a{-10, -10, 10, 10}, b{-3, 3, -3, 3};
    const OpVersion& divide1 = op("openvino.Divide-1");
    EXPECT_EQ(run_values<ElementType::i32>(divide1, kFloor, a, b),
              (V<ElementType::i32>{3, -4, -4, 3}));
    EXPECT_EQ(run_values<ElementType::i32>(divide1, kTrunc, a, b),
              (V<ElementType::i32>{3, -3, -3, 3}));
}

TEST(ReferenceDivide, OnnxTruncationExampleOnEveryIntegerDivVersion) {
    // [-3,3,-3,3]/[2,2,-2,-2] = [-1.5,1.5,1.5,-1.5], truncated to [-1,1,1,-1].
    for (const auto& info : core::kElementTypes) {
        if (info.kind != core::Kind::signed_integer) continue;
        for (const OpVersion* v : onnx_divides_with(info.type)) {
            SCOPED_TRACE(trace(*v, info.type));
            const auto out =
                run(*v, {}, vec(info.type, {-3, 3, -3, 3}), vec(info.type, {2, 2, -2, -2}));
            EXPECT_EQ(doubles(out.value), (std::vector<double>{-1, 1, 1, -1}));
        }
    }
    EXPECT_FALSE(onnx_divides_with(ElementType::i8).empty()) << "Div-14 allows i8";
}

TEST(ReferenceDivide, PythondivSpellingsAndCase) {
    const OpVersion& divide1 = op("openvino.Divide-1");
    const V<ElementType::i32> a{-7}, b{2};  // -3.5: floor -4, trunc -3
    EXPECT_EQ(run_values<ElementType::i32>(divide1, {{"m_pythondiv", "FALSE"}}, a, b),
              (V<ElementType::i32>{-3}));
    EXPECT_EQ(run_values<ElementType::i32>(divide1, {{"pythondiv", "false"}}, a, b),
              (V<ElementType::i32>{-3}));
    EXPECT_EQ(run_values<ElementType::i32>(divide1, {{"m_pythondiv", "True"}}, a, b),
              (V<ElementType::i32>{-4}));
}

TEST(ReferenceDivide, WideIntegersAreDividedExactly) {
    // 2^31-1 and 2^24+1 are not f32 values; (2^31-2)/(2^31-1) = 0.
    const V<ElementType::i32> a32{2147483647, 16777217, 2147483646}, b32{1, 1, 2147483647};
    // 2^53+1 is not an f64 value; 2^40/2 = 2^39 does not fit i32; (2^63-1)/3 = 3074457345618258602
    // (3*3074457345618258602 = 2^63 - 2, remainder 1).
    const V<ElementType::i64> a64{9007199254740993, 1099511627776, 9223372036854775807},
        b64{1, 2, 3};
    const V<ElementType::i64> q64{9007199254740993, 549755813888, 3074457345618258602};
    for (const auto& attributes : {kFloor, kTrunc}) {
        EXPECT_EQ(run_values<ElementType::i32>(op("openvino.Divide-1"), attributes, a32, b32),
                  (V<ElementType::i32>{2147483647, 16777217, 0}));
        EXPECT_EQ(run_values<ElementType::i64>(op("openvino.Divide-1"), attributes, a64, b64), q64);
    }
}

TEST(ReferenceDivide, I64ExtremesFloorAndTruncate) {
    constexpr std::int64_t min = std::numeric_limits<std::int64_t>::min();
    constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
    // -2^63/3 = -3074457345618258602.67: trunc -3074457345618258602, floor ...603.
    // (2^63-1)/-2^63 = -0.99..: trunc 0, floor -1. -2^63/(2^63-1) = -1.00..: trunc -1, floor -2.
    const V<ElementType::i64> a{min, max, min}, b{3, min, max};
    EXPECT_EQ(run_values<ElementType::i64>(op("openvino.Divide-1"), kTrunc, a, b),
              (V<ElementType::i64>{-3074457345618258602, 0, -1}));
    EXPECT_EQ(run_values<ElementType::i64>(op("openvino.Divide-1"), kFloor, a, b),
              (V<ElementType::i64>{-3074457345618258603, -1, -2}));
}

TEST(ReferenceDivide, ZeroDivisorsInBroadcastPositions) {
    // A (2,3) = [[2,4,6],[8,10,12]] / B (3) = [1,0,2]: B[1] = 0 meets flat outputs 1 and 4.
    // Others: 2/1 = 2, 6/2 = 3, 8/1 = 8, 12/2 = 6; undefined slots hold 0.
    const std::vector<double> expected{2, 0, 3, 8, 0, 6};
    for (const OpVersion* v : versions_with(core::Arithmetic::divide, ElementType::i32)) {
        const bool legacy = v->broadcast == core::BroadcastFamily::onnx_legacy;
        const AttributeMap attributes = legacy ? AttributeMap{{"broadcast", "1"}} : AttributeMap{};
        SCOPED_TRACE(v->id());
        const auto out = run(*v, attributes, tensor(ElementType::i32, {2, 3}, {2, 4, 6, 8, 10, 12}),
                             vec(ElementType::i32, {1, 0, 2}));
        EXPECT_EQ(out.value.shape, (Shape{2, 3}));
        EXPECT_EQ(out.undefined, (std::vector<std::int64_t>{1, 4}));
        EXPECT_EQ(doubles(out.value), expected);
    }
}

TEST(ReferenceDivide, EveryIntegerTypeMarksZeroDivisorsOnEveryVersion) {
    // [6,6,0,7]/[0,3,0,2]: 6/0 and 0/0 undefined; 6/3 = 2; 7/2 = 3.5 -> 3 (floor and trunc).
    for (const auto& info : core::kElementTypes) {
        if (!core::is_integer(info.type)) continue;
        for (const OpVersion* v : versions_with(core::Arithmetic::divide, info.type)) {
            SCOPED_TRACE(trace(*v, info.type));
            const auto out =
                run(*v, {}, vec(info.type, {6, 6, 0, 7}), vec(info.type, {0, 3, 0, 2}));
            EXPECT_EQ(out.undefined, (std::vector<std::int64_t>{0, 2}));
            EXPECT_EQ(doubles(out.value), (std::vector<double>{0, 2, 0, 3}));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Floating point

TEST(ReferenceFloat, PythondivHasNoEffect) {
    // -7/2 = 7/-2 = -3.5 and -7/-2 = 3.5 exactly, whatever m_pythondiv says.
    for (ElementType type : floating_types())
        for (const auto& attributes : {kFloor, kTrunc}) {
            SCOPED_TRACE(trace(op("openvino.Divide-1"), type));
            const auto out = run(op("openvino.Divide-1"), attributes, vec(type, {-7, 7, -7}),
                                 vec(type, {2, -2, -2}));
            EXPECT_EQ(doubles(out.value), (std::vector<double>{-3.5, -3.5, 3.5}));
        }
}

TEST(ReferenceFloat, DivisionSpecials) {
    // 1/0 = inf; -1/0 = -inf; 1/-0 = -inf; 0/0 = NaN; inf/inf = NaN; 0/-3 = -0; -0/-inf = +0;
    // NaN/1 = NaN; 5/inf = 0; -5/inf = -0; 1/NaN = NaN; -inf/2 = -inf.
    const std::vector<double> a{1, -1, 1, 0, kInf, 0, -0.0, kNaN, 5, -5, 1, -kInf};
    const std::vector<double> b{0, 0, -0.0, 0, kInf, -3, -kInf, 1, kInf, kInf, kNaN, 2};
    const std::vector<double> q{kInf, -kInf, -kInf, kNaN, kNaN, -0.0,
                                0.0,  kNaN,  0,     -0.0, kNaN, -kInf};
    for (ElementType type : floating_types())
        for (const OpVersion* v : versions_with(core::Arithmetic::divide, type)) {
            SCOPED_TRACE(trace(*v, type));
            const auto out = run(*v, {}, vec(type, a), vec(type, b));
            expect_same_values(doubles(out.value), q);
            EXPECT_TRUE(out.undefined.empty()) << "float x/0 is defined by IEEE 754";
        }
}

TEST(ReferenceFloat, MultiplicationSpecials) {
    // inf*0 = NaN; -0*5 = -0; 0*-5 = -0; NaN*1 = NaN; -inf*-0 = NaN; -2*0 = -0; inf*-2 = -inf;
    // -0*-0 = +0.
    const std::vector<double> a{kInf, -0.0, 0, kNaN, -kInf, -2, kInf, -0.0};
    const std::vector<double> b{0, 5, -5, 1, -0.0, 0, -2, -0.0};
    const std::vector<double> p{kNaN, -0.0, -0.0, kNaN, kNaN, -0.0, -kInf, 0.0};
    for (ElementType type : floating_types())
        for (const OpVersion* v : versions_with(core::Arithmetic::multiply, type)) {
            SCOPED_TRACE(trace(*v, type));
            expect_same_values(doubles(run(*v, {}, vec(type, a), vec(type, b)).value), p);
        }
}

TEST(ReferenceFloat, DivisionByZeroIsInfinityNotTheLargestFinite) {
    // IEEE: 1/0 = +inf (f64 0x7FF0..., not DBL_MAX or FLT_MAX), -1/0 = -inf.
    const auto f64 = run_values<ElementType::f64>(op("openvino.Divide-1"), {}, {1, -1}, {0, 0});
    EXPECT_EQ((bits_of<std::uint64_t>(f64)),
              (std::vector<std::uint64_t>{0x7FF0000000000000, 0xFFF0000000000000}));
    const auto f32 = run_values<ElementType::f32>(op("onnx.Div-7"), {}, {1, -1}, {0, 0});
    EXPECT_EQ((bits_of<std::uint32_t>(f32)), (std::vector<std::uint32_t>{0x7F800000, 0xFF800000}));
    EXPECT_EQ(
        std::bit_cast<std::uint64_t>(reference::divide(1.0, 0.0, IntegerRounding::floor).value),
        0x7FF0000000000000u);
    // f16 inf = 0x7C00, bf16 inf = 0x7F80 (1.0 is 0x3C00 and 0x3F80).
    EXPECT_EQ(run_bits<ElementType::f16>(op("onnx.Div-13"), {0x3C00, 0xBC00}, {0, 0}),
              (std::vector<std::uint16_t>{0x7C00, 0xFC00}));
    EXPECT_EQ(run_bits<ElementType::bf16>(op("onnx.Div-13"), {0x3F80, 0xBF80}, {0, 0}),
              (std::vector<std::uint16_t>{0x7F80, 0xFF80}));
}

TEST(ReferenceFloat, F32AndF64RoundToNearestEven) {
    const OpVersion& mul = op("openvino.Multiply-1");
    // (1+2^-23)^2 = 1 + 2^-22 + 2^-46 -> 1 + 2^-22 (0x3F800002): 2^-46 is below half an ulp.
    // (1+2^-23)*1.5 = 1.5 + 2^-23 + 2^-24: a tie between fractions 0x400001 and 0x400002 -> even.
    const float one_ulp = std::bit_cast<float>(0x3F800001u);
    EXPECT_EQ((bits_of<std::uint32_t>(
                  run_values<ElementType::f32>(mul, {}, {one_ulp, one_ulp}, {one_ulp, 1.5f}))),
              (std::vector<std::uint32_t>{0x3F800002, 0x3FC00002}));
    // (1+2^-52)^2 = 1 + 2^-51 + 2^-104 -> 1 + 2^-51.
    const double one_ulp64 = std::bit_cast<double>(0x3FF0000000000001u);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(
                  run_values<ElementType::f64>(mul, {}, {one_ulp64}, {one_ulp64})[0]),
              0x3FF0000000000002u);
    // 1/3 = 2^-2 * 1.0101...b: f32 rounds the 24th bit up (0x3EAAAAAB), f64 down (0x3FD5...55).
    EXPECT_EQ(std::bit_cast<std::uint32_t>(
                  run_values<ElementType::f32>(op("openvino.Divide-1"), {}, {1}, {3})[0]),
              0x3EAAAAABu);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(
                  run_values<ElementType::f64>(op("openvino.Divide-1"), {}, {1}, {3})[0]),
              0x3FD5555555555555u);
}

TEST(ReferenceFloat, F32GradualUnderflowAndOverflow) {
    const float min_normal = std::bit_cast<float>(0x00800000u);  // 2^-126
    const float denorm_min = std::bit_cast<float>(0x00000001u);  // 2^-149
    const float max = std::numeric_limits<float>::max();
    // 2^-126 * 2^-23 = 2^-149 (0x1); 2^-126 * 0.5 = 2^-127 (0x400000); 2^-149 * 0.5 is a tie
    // between 0 and 2^-149 -> 0; 2^-149 * 1.5 is a tie between 1 and 2 units -> 2 (0x2);
    // FLT_MAX*2 = inf; -FLT_MAX*2 = -inf.
    const V<ElementType::f32> a{min_normal, min_normal, denorm_min, denorm_min, max, -max};
    const V<ElementType::f32> b{std::bit_cast<float>(0x34000000u), 0.5f, 0.5f, 1.5f, 2, 2};
    EXPECT_EQ(bits_of<std::uint32_t>(run_values<ElementType::f32>(op("onnx.Mul-7"), {}, a, b)),
              (std::vector<std::uint32_t>{0x1, 0x400000, 0x0, 0x2, 0x7F800000, 0xFF800000}));
    // 2^-149 / 2 = 2^-150, a tie -> 0; 3*2^-149 / 2 = 1.5 units -> 2 units.
    EXPECT_EQ(bits_of<std::uint32_t>(run_values<ElementType::f32>(
                  op("onnx.Div-7"), {}, {denorm_min, std::bit_cast<float>(0x3u)}, {2, 2})),
              (std::vector<std::uint32_t>{0x0, 0x2}));
    // DBL_MAX*2 = inf.
    EXPECT_TRUE(std::isinf(run_values<ElementType::f64>(
        op("onnx.Mul-7"), {}, {std::numeric_limits<double>::max()}, {2})[0]));
}

TEST(ReferenceFloat, F16OverflowGivesInfinity) {
    // 65504 (0x7BFF) * 2 (0x4000) = 131008 > 65520 (the rounding threshold) -> inf (0x7C00);
    // -65504*2 -> -inf (0xFC00); 65504*1 (0x3C00) = 65504.
    for (const OpVersion* v : versions_with(core::Arithmetic::multiply, ElementType::f16))
        EXPECT_EQ(
            run_bits<ElementType::f16>(*v, {0x7BFF, 0xFBFF, 0x7BFF}, {0x4000, 0x4000, 0x3C00}),
            (std::vector<std::uint16_t>{0x7C00, 0xFC00, 0x7BFF}))
            << v->id();
}

TEST(ReferenceFloat, F16SubnormalProducts) {
    // 2^-14 (0x0400) * 2^-10 (0x1400) = 2^-24, the smallest subnormal (0x0001).
    // 2^-24 * 0.5 (0x3800) = 2^-25: a tie between 0 and 2^-24 -> even -> 0.
    // 2^-24 * 0.75 (0x3A00) = 0.75 units -> 1 unit (0x0001).
    // 2^-24 * 1.5 (0x3E00) and 3*2^-24 (0x0003) * 0.5: 1.5 units, a tie -> even 2 (0x0002).
    // -2^-24 (0x8001) * 0.5 -> -0 (0x8000). 2^-15 (0x0200) * 2 (0x4000) = 2^-14 (0x0400).
    const std::vector<std::uint16_t> a{0x0400, 0x0001, 0x0001, 0x0001, 0x0003, 0x8001, 0x0200};
    const std::vector<std::uint16_t> b{0x1400, 0x3800, 0x3A00, 0x3E00, 0x3800, 0x3800, 0x4000};
    const std::vector<std::uint16_t> p{0x0001, 0x0000, 0x0001, 0x0002, 0x0002, 0x8000, 0x0400};
    for (const OpVersion* v : versions_with(core::Arithmetic::multiply, ElementType::f16))
        EXPECT_EQ(run_bits<ElementType::f16>(*v, a, b), p) << v->id();
}

TEST(ReferenceFloat, F16ProductAndQuotientRounding) {
    // (1+2^-10)^2 = 1 + 2^-9 + 2^-20 -> 1 + 2^-9 (0x3C02).
    // (1+2^-10)*1.5 = 1.5 + 2^-10 + 2^-11: a tie between fractions 0x201 and 0x202 -> 0x3E02.
    EXPECT_EQ(run_bits<ElementType::f16>(op("onnx.Mul-14"), {0x3C01, 0x3C01}, {0x3C01, 0x3E00}),
              (std::vector<std::uint16_t>{0x3C02, 0x3E02}));
    // 1/3 = 2^-2 * 1.0101010101|0101..b -> rounds down: 0x3555. 2/3 = 2^-1 * same -> 0x3955.
    // 1/7 = 2^-3 * 1.0010010010|01..b -> rounds down: 0x3092 (7 = 0x4700, 3 = 0x4200).
    // 2^-14 / 2^10 (0x6400) = 2^-24 (0x0001); 2^-14 / 2^11 (0x6800) = 2^-25, a tie -> 0.
    EXPECT_EQ(run_bits<ElementType::f16>(op("openvino.Divide-1"),
                                         {0x3C00, 0x4000, 0x3C00, 0x0400, 0x0400},
                                         {0x4200, 0x4200, 0x4700, 0x6400, 0x6800}),
              (std::vector<std::uint16_t>{0x3555, 0x3955, 0x3092, 0x0001, 0x0000}));
}

TEST(ReferenceFloat, BF16ProductAndQuotientRounding) {
    const OpVersion& mul = op("onnx.Mul-13");
    // (1+2^-7)^2 = 1 + 2^-6 + 2^-14 -> 1 + 2^-6 (0x3F82): 2^-14 is below half an ulp (2^-8).
    // (1+2^-7)*1.5 = 1.5 + 2^-7 + 2^-8: a tie between fractions 0x41 and 0x42 -> 0x3FC2.
    // max (0x7F7F) * 2 = inf (0x7F80).
    // min subnormal 2^-133 (0x0001) * 0.5 (0x3F00): a tie -> 0; * 1.5 (0x3FC0): tie -> 2 units.
    // min normal 2^-126 (0x0080) * 0.5 = 2^-127, the subnormal 0x0040.
    EXPECT_EQ(run_bits<ElementType::bf16>(mul, {0x3F81, 0x3F81, 0x7F7F, 0x0001, 0x0001, 0x0080},
                                          {0x3F81, 0x3FC0, 0x4000, 0x3F00, 0x3FC0, 0x3F00}),
              (std::vector<std::uint16_t>{0x3F82, 0x3FC2, 0x7F80, 0x0000, 0x0002, 0x0040}));
    // 1/3 = 2^-2 * 1.0101010|1010..b -> rounds up: fraction 0x2B, exponent 125 -> 0x3EAB.
    EXPECT_EQ(run_bits<ElementType::bf16>(op("onnx.Div-14"), {0x3F80}, {0x4040}),
              (std::vector<std::uint16_t>{0x3EAB}));
}

// ---------------------------------------------------------------------------------------------
// Broadcasting

// Expected (8,7,6,5) output, row-major: out[i,j,k,l] = f(A[i,0,k,0], B[j,0,l]).
std::vector<double> seed_expected(const std::vector<double>& a, const std::vector<double>& b,
                                  const std::function<double(double, double)>& f) {
    std::vector<double> out;
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 7; ++j)
            for (int k = 0; k < 6; ++k)
                for (int l = 0; l < 5; ++l)
                    out.push_back(f(a[i * 6 + k], b[j * 5 + l]));
    return out;
}

TEST(ReferenceBroadcast, NumpySeedShapeMultiplyEveryElement) {
    const auto a = iota(48, 1), b = iota(35, 1);  // A (8,1,6,1) and B (7,1,5)
    const auto expected = seed_expected(a, b, std::multiplies<double>());
    for (const OpVersion* v : versions_with(core::Arithmetic::multiply, ElementType::i32)) {
        if (v->broadcast == core::BroadcastFamily::onnx_legacy) continue;
        SCOPED_TRACE(v->id());
        const Tensor ta = tensor(ElementType::i32, {8, 1, 6, 1}, a);
        const Tensor tb = tensor(ElementType::i32, {7, 1, 5}, b);
        const auto out = run(*v, {}, ta, tb);
        EXPECT_EQ(out.value.shape, (Shape{8, 7, 6, 5}));
        EXPECT_EQ(doubles(out.value), expected);
        EXPECT_EQ(doubles(run(*v, {}, tb, ta).value), expected) << "B first: either side stretches";
    }
}

TEST(ReferenceBroadcast, NumpySeedShapeDivideEveryElement) {
    // Divide-1 spec, example 2: numpy, (8,1,6,1) / (7,1,5); A = -24..23, B = 1..35.
    const auto a = iota(48, -24), b = iota(35, 1);
    const Tensor ta = tensor(ElementType::i32, {8, 1, 6, 1}, a);
    const Tensor tb = tensor(ElementType::i32, {7, 1, 5}, b);
    const auto trunc = [](double x, double y) { return std::trunc(x / y); };
    const auto floor = [](double x, double y) { return std::floor(x / y); };
    const OpVersion& divide1 = op("openvino.Divide-1");
    EXPECT_EQ(doubles(run(divide1, kTrunc, ta, tb).value), seed_expected(a, b, trunc));
    EXPECT_EQ(doubles(run(divide1, kFloor, ta, tb).value), seed_expected(a, b, floor));
    EXPECT_EQ(doubles(run(op("onnx.Div-14"), {}, ta, tb).value), seed_expected(a, b, trunc));
}

// A (2,3,4,5) = 1..120 times B, where b_index picks B's element for output [i,j,k,l].
struct Rank4Case {
    Shape b_shape;
    AttributeMap attributes;
    std::function<std::int64_t(std::int64_t, std::int64_t, std::int64_t, std::int64_t)> b_index;
};

std::vector<double> rank4_expected(const std::vector<double>& a, const std::vector<double>& b,
                                   const Rank4Case& c) {
    std::vector<double> out;
    for (std::int64_t i = 0; i < 2; ++i)
        for (std::int64_t j = 0; j < 3; ++j)
            for (std::int64_t k = 0; k < 4; ++k)
                for (std::int64_t l = 0; l < 5; ++l)
                    out.push_back(a[((i * 3 + j) * 4 + k) * 5 + l] * b[c.b_index(i, j, k, l)]);
    return out;
}

void check_rank4(const OpVersion& v, ElementType type, const Rank4Case& c) {
    std::int64_t b_count = 1;
    for (std::int64_t d : c.b_shape)
        b_count *= d;
    const auto a = iota(120, 1), b = iota(b_count, 2);
    SCOPED_TRACE(trace(v, type) + " B " + core::to_string(c.b_shape));
    const auto out =
        run(v, c.attributes, tensor(type, {2, 3, 4, 5}, a), tensor(type, c.b_shape, b));
    EXPECT_EQ(out.value.shape, (Shape{2, 3, 4, 5}));
    EXPECT_EQ(doubles(out.value), rank4_expected(a, b, c));
}

using I4 = std::int64_t;

TEST(ReferenceBroadcast, PdpdBOntoA) {
    const AttributeMap pdpd{{"auto_broadcast", "pdpd"}};
    const auto with_axis = [](const char* axis) {
        return AttributeMap{{"auto_broadcast", "pdpd"}, {"auto_broadcast_axis", axis}};
    };
    const std::vector<Rank4Case> cases{
        // B (3,1) at axis 1: trailing 1 dropped, B[j] scales A[i,j,:,:].
        {{3, 1}, with_axis("1"), [](I4, I4 j, I4, I4) { return j; }},
        {{3, 4}, with_axis("1"), [](I4, I4 j, I4 k, I4) { return j * 4 + k; }},
        {{4, 5}, pdpd, [](I4, I4, I4 k, I4 l) { return k * 5 + l; }},
        {{4, 5}, with_axis("2"), [](I4, I4, I4 k, I4 l) { return k * 5 + l; }},
        {{1, 3}, with_axis("0"), [](I4, I4 j, I4, I4) { return j; }},
        {{}, pdpd, [](I4, I4, I4, I4) { return I4{0}; }},
        {{5}, pdpd, [](I4, I4, I4, I4 l) { return l; }},
        {{5}, with_axis("3"), [](I4, I4, I4, I4 l) { return l; }},
    };
    for (const auto& c : cases)
        check_rank4(op("openvino.Multiply-1"), ElementType::i32, c);
}

TEST(ReferenceBroadcast, OnnxLegacyBOntoA) {
    const AttributeMap on{{"broadcast", "1"}};
    const std::vector<Rank4Case> cases{
        {{3, 4}, {{"broadcast", "1"}, {"axis", "1"}}, [](I4, I4 j, I4 k, I4) { return j * 4 + k; }},
        {{5}, on, [](I4, I4, I4, I4 l) { return l; }},
        {{4, 5}, on, [](I4, I4, I4 k, I4 l) { return k * 5 + l; }},
        {{}, on, [](I4, I4, I4, I4) { return I4{0}; }},
        {{1, 1}, on, [](I4, I4, I4, I4) { return I4{0}; }},
        {{2}, {{"broadcast", "1"}, {"axis", "0"}}, [](I4 i, I4, I4, I4) { return i; }},
    };
    for (const auto& c : cases) {
        check_rank4(op("onnx.Mul-6"), ElementType::i32, c);
        check_rank4(op("onnx.Mul-1"), ElementType::f32, c);
    }
}

TEST(ReferenceBroadcast, OnnxLegacyDivide) {
    // A (2,3) = [[2,4,6],[8,10,12]] / B (3) = [1,2,3], suffix: [[2,2,2],[8,5,4]].
    for (const char* id : {"onnx.Div-1", "onnx.Div-6"}) {
        const auto out = run(op(id), {{"broadcast", "1"}},
                             tensor(ElementType::f32, {2, 3}, {2, 4, 6, 8, 10, 12}),
                             vec(ElementType::f32, {1, 2, 3}));
        EXPECT_EQ(doubles(out.value), (std::vector<double>{2, 2, 2, 8, 5, 4})) << id;
    }
}

TEST(ReferenceBroadcast, ScalarOperand) {
    // A (2,3) = 1..6 times scalar 3 = 3,6,..,18, in either order.
    const std::vector<double> expected{3, 6, 9, 12, 15, 18};
    for (const OpVersion* v : versions_with(core::Arithmetic::multiply, ElementType::f32)) {
        if (v->broadcast != core::BroadcastFamily::multidirectional) continue;
        const Tensor matrix = tensor(ElementType::f32, {2, 3}, iota(6, 1));
        const Tensor scalar = tensor(ElementType::f32, {}, {3});
        const auto out = run(*v, {}, matrix, scalar);
        EXPECT_EQ(out.value.shape, (Shape{2, 3})) << v->id();
        EXPECT_EQ(doubles(out.value), expected) << v->id();
        EXPECT_EQ(doubles(run(*v, {}, scalar, matrix).value), expected) << v->id();
    }
}

TEST(ReferenceBroadcast, ZeroSizeOutputIsEmpty) {
    // (0,3) with (3) -> (0,3); (2,0) with (1) -> (2,0): no elements, nothing undefined.
    const auto out = run(op("onnx.Mul-7"), {}, tensor(ElementType::f32, {0, 3}, {}),
                         vec(ElementType::f32, {1, 2, 3}));
    EXPECT_EQ(out.value.shape, (Shape{0, 3}));
    EXPECT_EQ(out.value.size(), 0);
    const auto div = run(op("openvino.Divide-1"), {}, tensor(ElementType::i32, {2, 0}, {}),
                         vec(ElementType::i32, {0}));
    EXPECT_EQ(div.value.shape, (Shape{2, 0}));
    EXPECT_EQ(div.value.size(), 0);
    EXPECT_TRUE(div.undefined.empty());
}

TEST(ReferenceBroadcast, RankZeroTimesRankZero) {
    // 3*2 = 6; -7/2 = -3.5 floors to -4; 1/0 undefined at flat index 0.
    const auto mul = run(op("onnx.Mul-7"), {}, tensor(ElementType::f32, {}, {3}),
                         tensor(ElementType::f32, {}, {2}));
    EXPECT_EQ(mul.value.shape, Shape{});
    EXPECT_EQ(doubles(mul.value), (std::vector<double>{6}));
    const auto div = run(op("openvino.Divide-1"), {}, tensor(ElementType::i32, {}, {-7}),
                         tensor(ElementType::i32, {}, {2}));
    EXPECT_EQ(div.value.shape, Shape{});
    EXPECT_EQ(doubles(div.value), (std::vector<double>{-4}));
    const auto zero = run(op("openvino.Divide-1"), {}, tensor(ElementType::i32, {}, {1}),
                          tensor(ElementType::i32, {}, {0}));
    EXPECT_EQ(zero.undefined, (std::vector<std::int64_t>{0}));
}

TEST(ReferenceBroadcast, NumpyRuleExampleShapes) {
    // From the OpenVINO broadcast rules doc: (2,1,5)+(1,4,5) -> (2,4,5); (6,5)+(2,1,5) -> (2,6,5);
    // (1,5,3)+(5,2,1,3) -> (5,2,5,3).
    const std::vector<std::array<Shape, 3>> cases{{{{2, 1, 5}, {1, 4, 5}, {2, 4, 5}}},
                                                  {{{6, 5}, {2, 1, 5}, {2, 6, 5}}},
                                                  {{{1, 5, 3}, {5, 2, 1, 3}, {5, 2, 5, 3}}}};
    for (const auto& [a, b, expected] : cases) {
        const auto out = run(op("openvino.Multiply-1"), {}, Tensor::zeros(ElementType::f32, a),
                             Tensor::zeros(ElementType::f32, b));
        EXPECT_EQ(out.value.shape, expected);
    }
}

TEST(ReferenceBroadcast, AutoBroadcastNoneAndCaseInsensitiveNumpy) {
    const Tensor a = tensor(ElementType::f32, {2, 3}, iota(6, 1));
    const Tensor b = tensor(ElementType::f32, {2, 3}, {2, 2, 2, 2, 2, 2});
    const Tensor row = vec(ElementType::f32, {2, 2, 2});
    // 1..6 times 2 = 2,4,..,12, with identical shapes under none, or a row under numpy.
    const std::vector<double> expected{2, 4, 6, 8, 10, 12};
    const OpVersion& mul = op("openvino.Multiply-1");
    EXPECT_EQ(doubles(run(mul, {{"auto_broadcast", "none"}}, a, b).value), expected);
    EXPECT_EQ(doubles(run(mul, {{"auto_broadcast", "NumPy"}}, a, row).value), expected);
    EXPECT_TRUE(rejects(ErrorKind::shape, mul, {{"auto_broadcast", "none"}}, a, row));
}

// ---------------------------------------------------------------------------------------------
// Attribute and shape errors

TEST(ReferenceErrors, AttributeErrors) {
    const Tensor a = vec(ElementType::f32, {1, 2}), b = vec(ElementType::f32, {3, 4});
    const auto attribute_error = [&](const char* id, const AttributeMap& attributes) {
        return rejects(ErrorKind::attribute, op(id), attributes, a, b);
    };
    EXPECT_TRUE(attribute_error("onnx.Mul-7", {{"broadcast", "1"}})) << "Mul-7 has no attributes";
    EXPECT_TRUE(attribute_error("onnx.Mul-7", {{"bogus", "1"}}));
    EXPECT_TRUE(attribute_error("onnx.Mul-14", {{"axis", "0"}}));
    EXPECT_TRUE(attribute_error("onnx.Div-13", {{"m_pythondiv", "true"}}));
    EXPECT_TRUE(attribute_error("onnx.Mul-6", {{"broadcast", "2"}}));
    EXPECT_TRUE(attribute_error("onnx.Div-1", {{"broadcast", "2"}}));
    EXPECT_TRUE(attribute_error("onnx.Mul-6", {{"broadcast", "1"}, {"axis", "x"}}));
    EXPECT_TRUE(attribute_error("openvino.Multiply-1", {{"auto_broadcast", "bogus"}}));
    EXPECT_TRUE(attribute_error("openvino.Divide-1", {{"auto_broadcast", "bogus"}}));
    EXPECT_TRUE(attribute_error("openvino.Multiply-1", {{"m_pythondiv", "true"}}));
    EXPECT_TRUE(attribute_error("openvino.Divide-1", {{"m_pythondiv", "maybe"}}));
    EXPECT_TRUE(attribute_error("openvino.Divide-1",
                                {{"auto_broadcast", "pdpd"}, {"auto_broadcast_axis", "-2"}}));
}

TEST(ReferenceErrors, ShapeErrors) {
    const auto f32 = [](Shape shape) { return Tensor::zeros(ElementType::f32, std::move(shape)); };
    const auto shape_error = [&](const char* id, const AttributeMap& attributes, Shape a, Shape b) {
        return rejects(ErrorKind::shape, op(id), attributes, f32(std::move(a)), f32(std::move(b)));
    };
    // ONNX legacy: broadcast=0 needs equal shapes; size-1 dims of B do not stretch; axis must fit.
    EXPECT_TRUE(shape_error("onnx.Mul-6", {{"broadcast", "0"}}, {2, 3}, {3}));
    EXPECT_TRUE(shape_error("onnx.Mul-6", {}, {2, 3}, {3}));
    EXPECT_TRUE(
        shape_error("onnx.Mul-6", {{"broadcast", "1"}, {"axis", "1"}}, {2, 3, 4, 5}, {3, 1}));
    EXPECT_TRUE(
        shape_error("onnx.Mul-6", {{"broadcast", "1"}, {"axis", "3"}}, {2, 3, 4, 5}, {4, 5}));
    EXPECT_TRUE(shape_error("onnx.Mul-1", {{"broadcast", "1"}}, {2, 3, 4, 5}, {4}));
    EXPECT_TRUE(shape_error("onnx.Div-6", {{"broadcast", "1"}}, {4, 5}, {2, 4, 5}));
    // numpy: (3)+(2) and (3,1,5)+(4,4,5) fail.
    EXPECT_TRUE(shape_error("onnx.Mul-7", {}, {3}, {2}));
    EXPECT_TRUE(shape_error("onnx.Div-14", {}, {3, 1, 5}, {4, 4, 5}));
    // pdpd only broadcasts B to A.
    const AttributeMap pdpd1{{"auto_broadcast", "pdpd"}, {"auto_broadcast_axis", "1"}};
    EXPECT_TRUE(shape_error("openvino.Multiply-1", pdpd1, {8, 1, 6, 1}, {7, 1, 5}));
    EXPECT_TRUE(shape_error("openvino.Divide-1", {{"auto_broadcast", "pdpd"}}, {3}, {2, 3}));
    EXPECT_TRUE(shape_error("openvino.Divide-1", {{"auto_broadcast", "none"}}, {2, 3}, {3}));
}

}  // namespace
