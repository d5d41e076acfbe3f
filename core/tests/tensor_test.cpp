// Shapes and tensors: element counts, invalid shapes, zero-filled storage, typed access.
#include "core/tensor.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>

#include "core/error.hpp"

namespace core {
namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

// Runs f and expects a core::Error of kind shape.
template <class F>
void expect_shape_error(F&& f) {
    try {
        f();
        ADD_FAILURE() << "no core::Error thrown";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::shape) << e.what();
    }
}

TEST(Tensor, ToStringPrintsParenthesisedDims) {
    EXPECT_EQ(to_string(Shape{}), "()");
    EXPECT_EQ(to_string(Shape{3}), "(3)");
    EXPECT_EQ(to_string(Shape{2, 3, 4}), "(2,3,4)");
}

TEST(Tensor, ElementCountIsTheProductOfDims) {
    EXPECT_EQ(element_count({}), 1);  // a scalar has one element
    EXPECT_EQ(element_count({7}), 7);
    EXPECT_EQ(element_count({2, 3, 4}), 24);
    EXPECT_EQ(element_count({1, 1, 1}), 1);
}

TEST(Tensor, ElementCountWithZeroSizedDimsIsZero) {
    EXPECT_EQ(element_count({0}), 0);
    EXPECT_EQ(element_count({2, 0, 3}), 0);
    EXPECT_EQ(element_count({0, 0}), 0);
    // 2^40 * 2^40 overflows, but a zero dim anywhere makes the tensor empty.
    const std::int64_t huge = std::int64_t{1} << 40;
    EXPECT_EQ(element_count({huge, huge, 0}), 0);
    EXPECT_EQ(element_count({0, huge, huge}), 0);
}

TEST(Tensor, NegativeDimIsAShapeError) {
    expect_shape_error([] { element_count({-1}); });
    expect_shape_error([] { element_count({2, -3, 4}); });
    expect_shape_error([] { element_count({0, -1}); });
}

TEST(Tensor, RankLimit) {
    EXPECT_EQ(element_count(Shape(kMaxRank, 1)), 1);
    EXPECT_EQ(element_count(Shape(kMaxRank, 2)), std::int64_t{1} << kMaxRank);
    expect_shape_error([] { element_count(Shape(kMaxRank + 1, 1)); });
}

// The largest representable count is fine; one step beyond must be an error, not wrap-around.
TEST(Tensor, ElementCountOverflowIsAShapeError) {
    EXPECT_EQ(element_count({kInt64Max}), kInt64Max);
    EXPECT_EQ(element_count({kInt64Max, 1}), kInt64Max);
    EXPECT_EQ(element_count({std::int64_t{1} << 31, std::int64_t{1} << 31}), std::int64_t{1} << 62);
    expect_shape_error([] { element_count({kInt64Max, 2}); });
    expect_shape_error([] { element_count({std::int64_t{1} << 31, std::int64_t{1} << 32}); });
    expect_shape_error([] { element_count({std::int64_t{1} << 32, std::int64_t{1} << 32}); });
    expect_shape_error([] { element_count({3, kInt64Max / 2}); });
}

TEST(Tensor, ZerosAllocatesZeroFilledStorage) {
    const Tensor t = Tensor::zeros(ElementType::f64, {2, 3});
    EXPECT_EQ(t.type, ElementType::f64);
    EXPECT_EQ(t.shape, (Shape{2, 3}));
    EXPECT_EQ(t.size(), 6);
    ASSERT_EQ(t.bytes.size(), 48u);
    for (std::byte b : t.bytes)
        EXPECT_EQ(b, std::byte{0});
}

TEST(Tensor, ZerosOfScalarAndEmptyShapes) {
    const Tensor scalar = Tensor::zeros(ElementType::i16, {});
    EXPECT_EQ(scalar.size(), 1);
    EXPECT_EQ(scalar.bytes.size(), 2u);
    const Tensor empty = Tensor::zeros(ElementType::f32, {4, 0});
    EXPECT_EQ(empty.size(), 0);
    EXPECT_TRUE(empty.bytes.empty());
}

TEST(Tensor, ZerosRejectsInvalidShapes) {
    expect_shape_error([] { Tensor::zeros(ElementType::f32, {2, -1}); });
    expect_shape_error([] { Tensor::zeros(ElementType::f32, Shape(kMaxRank + 1, 1)); });
}

// Counts that fit in int64 but whose byte size does not fit: 2^61 f64 = 2^64 bytes,
// 2^62 i16 = 2^63 bytes. Both must be rejected before any allocation is attempted.
TEST(Tensor, ZerosRejectsByteSizeOverflow) {
    expect_shape_error([] { Tensor::zeros(ElementType::f64, {std::int64_t{1} << 61}); });
    expect_shape_error([] { Tensor::zeros(ElementType::i16, {std::int64_t{1} << 62}); });
    expect_shape_error([] { Tensor::zeros(ElementType::u64, {kInt64Max}); });
}

TEST(Tensor, MakeTensorStoresValuesInRowMajorOrder) {
    const Tensor t = make_tensor<ElementType::i32>({2, 2}, {1, -2, 3, -4});
    EXPECT_EQ(t.type, ElementType::i32);
    EXPECT_EQ(t.shape, (Shape{2, 2}));
    const auto v = t.values<std::int32_t>();
    ASSERT_EQ(v.size(), 4u);
    EXPECT_EQ(v[0], 1);
    EXPECT_EQ(v[1], -2);
    EXPECT_EQ(v[2], 3);
    EXPECT_EQ(v[3], -4);
}

TEST(Tensor, MakeTensorOfHalfKeepsBits) {
    const Tensor t = make_tensor<ElementType::f16>({2}, {Half{0x3C00}, Half{0x8000}});
    EXPECT_EQ(t.bytes.size(), 4u);
    EXPECT_EQ(t.values<Half>()[0].bits, 0x3C00);
    EXPECT_EQ(t.values<Half>()[1].bits, 0x8000);
}

TEST(Tensor, MakeTensorRejectsWrongValueCount) {
    EXPECT_THROW(make_tensor<ElementType::f32>({2, 2}, {1.0f, 2.0f, 3.0f}), std::logic_error);
    EXPECT_THROW(make_tensor<ElementType::u8>({}, {}), std::logic_error);
}

TEST(Tensor, ValuesWithStorageOfAnotherSizeThrows) {
    Tensor t = Tensor::zeros(ElementType::f32, {3});
    EXPECT_THROW(t.values<double>(), std::logic_error);
    EXPECT_THROW(t.values<std::int16_t>(), std::logic_error);
    const Tensor& ct = t;
    EXPECT_THROW(ct.values<std::uint8_t>(), std::logic_error);
    EXPECT_EQ(ct.values<float>().size(), 3u);
}

TEST(Tensor, ValuesWritesAreVisibleInTheBytes) {
    Tensor t = Tensor::zeros(ElementType::u16, {2});
    t.values<std::uint16_t>()[1] = 0xABCD;
    const auto v = std::as_const(t).values<std::uint16_t>();
    EXPECT_EQ(v[0], 0);
    EXPECT_EQ(v[1], 0xABCD);
}

}  // namespace
}  // namespace core
