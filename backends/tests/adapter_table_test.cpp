// Adapter manifests (backends/adapters/*/adapter.json): what a manifest must hold, the errors of
// a bad one, and the repository's own manifests.
#include "backends/adapter_table.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/error.hpp"

namespace {

const char* kGood = R"({"name": "lib", "library": "Lib 1.0", "version": "lib.__version__",
  "command": "{venv_python} {here}/x.py",
  "install": "pip install lib", "isa_cap_env": "LIB_ISA", "platforms": ["arm64"],
  "smoke": {"cases": "spec,random", "count": 2, "seed": 7, "isa_caps": ["avx2"],
            "ops": "onnx.Mul-14,onnx.Div-14", "dtypes": "f32,i32"}, "compile_latency_seconds": 40})";

std::string error_of(const std::string& text, const std::string& folder = "lib") {
    try {
        backends::parse_manifest(text, folder, "lib/adapter.json");
    } catch (const core::Error& e) {
        return e.what();
    }
    return "";
}

TEST(AdapterManifest, GoodManifestIsRead) {
    const backends::Adapter a = backends::parse_manifest(kGood, "lib", "lib/adapter.json");
    EXPECT_EQ(a.name, "lib");
    EXPECT_EQ(a.library, "Lib 1.0");
    EXPECT_EQ(a.version, "lib.__version__");
    using Settings = std::map<std::string, std::map<std::string, std::string>>;
    EXPECT_EQ(a.isa_cap_env, (Settings{{"avx2", {{"LIB_ISA", "AVX2"}}}}));
    EXPECT_EQ(a.platforms, std::vector<std::string>{"arm64"});
    EXPECT_EQ(a.smoke.cases, "spec,random");
    EXPECT_EQ(a.smoke.count, 2);
    EXPECT_EQ(a.smoke.seed, 7);
    EXPECT_EQ(a.smoke.isa_caps, std::vector<std::string>{"avx2"});
    EXPECT_EQ(a.smoke.ops, "onnx.Mul-14,onnx.Div-14");
    EXPECT_EQ(a.smoke.dtypes, "f32,i32");
    EXPECT_EQ(a.compile_latency_seconds, 40);
}

// PROTOCOL.md section 9, item 19: at most an hour, and none by default.
TEST(AdapterManifest, CompileLatencyIsSecondsUpToAnHour) {
    const std::string head = R"({"name": "lib", "library": "L", "version": "v", "command": "x",
        "install": "i")";
    EXPECT_EQ(
        backends::parse_manifest(head + "}", "lib", "lib/adapter.json").compile_latency_seconds, 0);
    EXPECT_NE(error_of(head + R"(, "compile_latency_seconds": 3601})").find("outside [0, 3600]"),
              std::string::npos);
    EXPECT_NE(error_of(head + R"(, "compile_latency_seconds": 2.5})").find("is not an integer"),
              std::string::npos);
}

// numpy's knob is a list of features to disable, XLA's a flag: settings per cap.
TEST(AdapterManifest, IsaCapSettingsPerCap) {
    const backends::Adapter a = backends::parse_manifest(
        R"({"name": "lib", "library": "L", "version": "v", "command": "x", "install": "i",
            "isa_cap_env": {"avx2": {"A": "x y", "B": "--z"}}})",
        "lib", "lib/adapter.json");
    EXPECT_EQ(a.isa_cap_env.at("avx2"),
              (std::map<std::string, std::string>{{"A", "x y"}, {"B", "--z"}}));
    const std::string head = R"({"name": "lib", "library": "L", "version": "v", "command": "x",
        "install": "i", "isa_cap_env": )";
    EXPECT_NE(error_of(head + R"({"sse2": {"A": "1"}}})").find("cap \"sse2\"; known: avx2"),
              std::string::npos);
    EXPECT_NE(error_of(head + R"({"avx2": {}}})").find("at least one variable"), std::string::npos);
    EXPECT_NE(error_of(head + R"({"avx2": {"A": 1}}})").find("\"isa_cap_env\" has the wrong type"),
              std::string::npos);
    EXPECT_NE(error_of(head + "3}").find("\"isa_cap_env\" has the wrong type"), std::string::npos);
}

TEST(AdapterManifest, BadManifestsNameFileAndProblem) {
    EXPECT_NE(error_of("{").find("lib/adapter.json: is not JSON"), std::string::npos);
    EXPECT_NE(error_of("[1]").find("is not a JSON object"), std::string::npos);
    // found by the fuzz target: a number out of range is nlohmann's out_of_range, not parse_error
    EXPECT_NE(error_of(R"({"name": 1e999})").find("lib/adapter.json: is not JSON"),
              std::string::npos);
    EXPECT_NE(error_of(kGood, "other").find("names \"lib\", not its folder other"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"name": "lib", "library": "L", "version": "v", "command": "x"})")
                  .find("no \"install\""),
              std::string::npos);
    EXPECT_NE(error_of(R"({"name": "lib", "library": "L", "command": "x", "install": "i"})")
                  .find("no \"version\""),
              std::string::npos);
    EXPECT_NE(error_of(R"({"name": "lib", "library": "L", "version": "v", "command": 3,
                          "install": "i"})")
                  .find("\"command\" has the wrong type"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"name": "lib", "library": "L", "version": "v", "command": "'x",
                          "install": "i"})")
                  .find("unterminated single quote"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"name": "lib", "library": "L", "version": "v", "command": "x",
                          "install": "i", "colour": 1})")
                  .find("unknown key \"colour\""),
              std::string::npos);
    EXPECT_NE(error_of(R"({"name": "lib", "library": "L", "version": "v", "command": "x",
                          "install": "i", "smoke": {"cases": "spec", "count": 0, "seed": 1}})")
                  .find("\"count\" is outside [1, 2147483647]"),
              std::string::npos);
    // A float or a too-wide integer is an error, not a cast (the fuzzer's find: 5.6e38 as int).
    EXPECT_NE(error_of(R"({"name": "lib", "library": "L", "version": "v", "command": "x",
                          "install": "i", "smoke": {"cases": "spec", "count": 5.6e38, "seed": 1}})")
                  .find("\"count\" is not an integer"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"name": "lib", "library": "L", "version": "v", "command": "x",
                          "install": "i", "smoke": {"cases": "spec", "count": 1, "seed": 4294967296}})")
                  .find("\"seed\" is outside [0, 2147483647]"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"name": "lib", "library": "L", "version": "v", "command": "x",
                          "install": "i", "platforms": ["riscv64"]})")
                  .find("unknown platform \"riscv64\" (arm64)"),
              std::string::npos);
}

TEST(AdapterManifest, CommandPlaceholdersAreFilled) {
    const backends::Adapter a = backends::parse_manifest(kGood, "lib", "lib/adapter.json");
    backends::AdapterPaths paths{"/usr/bin/python3", "/v/bin/python", "node",    "/b/host",
                                 "/b/lib",           "/src/adapters", "/src/kit"};
    EXPECT_EQ(backends::adapter_command(a, paths), "/v/bin/python /src/adapters/lib/x.py");
}

TEST(AdapterManifest, RepositoryManifestsAreValid) {
    const auto adapters = backends::read_adapters(ELTWISE_ADAPTERS_DIR);
    ASSERT_GE(adapters.size(), 15u);
    for (std::size_t i = 1; i < adapters.size(); ++i)
        EXPECT_LT(adapters[i - 1].name, adapters[i].name);  // sorted, no two alike
    for (const backends::Adapter& a : adapters)
        EXPECT_FALSE(a.smoke.cases.empty()) << a.name;
}

}  // namespace
