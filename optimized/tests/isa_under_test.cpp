#include "optimized/tests/isa_under_test.hpp"

#include <gtest/gtest.h>

#include <string>

namespace optimized::testing {
namespace {

// Skips every test of the process when ELTWISE_ISA names a kernel set this CPU lacks.
class IsaEnvironment : public ::testing::Environment {
  public:
    void SetUp() override {
        const auto isa = environment_isa();
        if (isa && !cpu_supports(*isa))
            GTEST_SKIP() << "ELTWISE_ISA=" << name(*isa) << ": this CPU does not run it";
    }
};

[[maybe_unused]] ::testing::Environment* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new IsaEnvironment);

}  // namespace

std::vector<Isa> isas_under_test() {
    if (const auto isa = environment_isa()) return {*isa};
    std::vector<Isa> out;
    for (const Isa isa : kIsas)
        if (cpu_supports(isa)) out.push_back(isa);
    return out;
}

// The ISA list CMake registers tests for (ELTWISE_ISAS) is the dispatcher's own.
TEST(IsaList, CMakeRegistersEveryKernelSet) {
    std::string names;
    for (const Isa isa : kIsas)
        names += (names.empty() ? "" : ",") + std::string(name(isa));
    EXPECT_EQ(names, ELTWISE_ISAS);
}

}  // namespace optimized::testing
