#include "property_tests/property_check.hpp"

#include <filesystem>
#include <iostream>
#include <sstream>
#include <system_error>

namespace property_tests {
namespace {

using rc::detail::CaseDescription;
using rc::detail::configuration;

// Honours RC_PARAMS verbose_progress / verbose_shrinking the way RapidCheck's own listener does:
// one character per case or shrink attempt.
class ProgressListener : public rc::detail::TestListener {
  public:
    void onTestCaseFinished(const CaseDescription&) override {
        if (configuration().verboseProgress) std::cerr << '.';
    }
    void onShrinkTried(const CaseDescription&, bool accepted) override {
        if (configuration().verboseShrinking) std::cerr << (accepted ? '!' : '.');
    }
    void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {
        if (configuration().verboseProgress || configuration().verboseShrinking) std::cerr << '\n';
    }
};

std::string executable_path() {
    std::error_code error;
    const auto path = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::string("property_tests") : path.string();
}

// RC_PARAMS="..." <binary> --gtest_filter=<id>
std::string command(const std::string& rc_params, const std::string& id) {
    return "RC_PARAMS=\"" + rc_params + "\" " + executable_path() + " --gtest_filter='" + id + "'";
}

std::string replay_lines(const rc::detail::FailureResult& failure, const std::string& id) {
    rc::detail::Configuration config = configuration();
    const rc::detail::TestParams& params = config.testParams;
    std::ostringstream os;
    os << "Seed: " << params.seed << " (RC_PARAMS; this test's stream is derived from it and the "
       << "test name), max_success: " << params.maxSuccess << ", max_size: " << params.maxSize
       << "\nReplay the whole test (same seed and budget):\n  "
       << command("seed=" + std::to_string(params.seed) +
                      " max_success=" + std::to_string(params.maxSuccess) +
                      " max_size=" + std::to_string(params.maxSize),
                  id)
       << "\n";
    config.reproduce = {{id, failure.reproduce}};
    os << "Replay only the shrunk counterexample:\n  "
       << command(rc::detail::configToMinimalString(config), id) << "\n";
    return os.str();
}

::testing::AssertionResult verdict(const rc::detail::TestResult& result, const std::string& id) {
    if (result.is<rc::detail::SuccessResult>()) return ::testing::AssertionSuccess();
    std::ostringstream os;
    rc::detail::printResultMessage(result, os);
    os << "\n\n";
    rc::detail::FailureResult failure;
    if (result.match(failure)) os << replay_lines(failure, id);
    return ::testing::AssertionFailure() << os.str();
}

}  // namespace

std::string current_test_id() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    return std::string(info->test_suite_name()) + "." + info->name();
}

std::uint64_t test_seed(std::uint64_t seed, const std::string& id) {
    std::uint64_t h = 0xcbf29ce484222325u;  // FNV-1a of the id
    for (unsigned char c : id)
        h = (h ^ c) * 0x100000001b3u;
    std::uint64_t z = seed ^ h;  // splitmix64 finalizer: nearby seeds give unrelated streams
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

::testing::AssertionResult run_property(const rc::detail::Property& property,
                                        const std::string& id) {
    const rc::detail::Configuration& config = configuration();
    rc::detail::TestParams params = config.testParams;
    params.seed = test_seed(params.seed, id);
    rc::detail::TestMetadata metadata;
    metadata.id = id;
    metadata.description = id;
    ProgressListener listener;
    return verdict(
        rc::detail::checkProperty(property, metadata, params, listener, config.reproduce), id);
}

}  // namespace property_tests
