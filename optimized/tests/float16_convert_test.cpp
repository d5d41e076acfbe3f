// The portable f16/bf16 conversions against core's, bit for bit.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/half_float.hpp"
#include "optimized/float16_convert.hpp"

namespace {

using optimized::bits_of;
using optimized::float_from_bits;

TEST(Float16Convert, WideningMatchesCoreForEveryEncoding) {
    for (std::uint32_t h = 0; h <= 0xFFFF; ++h) {
        const auto bits = static_cast<std::uint16_t>(h);
        ASSERT_EQ(bits_of(optimized::f16_to_f32(bits)), bits_of(core::to_float(core::Half{bits})))
            << std::hex << h;
        ASSERT_EQ(bits_of(optimized::bf16_to_f32(bits)),
                  bits_of(core::to_float(core::BFloat16{bits})))
            << std::hex << h;
    }
}

// Every sign/exponent/top-fraction prefix (2^19 of them) with low bits around the rounding
// points of both formats: 13 bits dropped for f16, 16 for bf16.
TEST(Float16Convert, NarrowingMatchesCoreAroundEveryRoundingPoint) {
    const std::uint32_t lows[] = {0x0000, 0x0001, 0x0FFF, 0x1000, 0x1001, 0x1FFF,
                                  0x7FFF, 0x8000, 0x8001, 0xFFFF, 0x5A5A};
    for (std::uint32_t high = 0; high < (1u << 19); ++high) {
        for (std::uint32_t low : lows) {
            const std::uint32_t x = (high << 13) | (low & 0x1FFFu);
            const std::uint32_t y = ((high >> 3) << 16) | low;
            const float fx = float_from_bits(x), fy = float_from_bits(y);
            ASSERT_EQ(optimized::f32_to_f16(fx), core::half_from_float(fx).bits) << std::hex << x;
            ASSERT_EQ(optimized::f32_to_bf16(fy), core::bfloat16_from_float(fy).bits)
                << std::hex << y;
        }
    }
}

}  // namespace
