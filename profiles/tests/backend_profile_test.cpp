#include "profiles/backend_profile.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "core/op_table.hpp"
#include "profiles/profile_listing.hpp"

namespace {

const char* kGood = R"(
[[declare]]
name = "bf16-toward-zero"
finding = "docs/findings/openvino-23.md"
behaviours = ["results_rounded_toward_zero"]
ops = ["openvino.*"]
dtypes = ["bf16"]
cpu_lacks = ["avx512_bf16"]

[[declare]]
name = "pdpd-crash"
finding = "docs/findings/openvino-14.md"
status = "CRASHED"
when = "int_min_by_minus_one"
ops = ["openvino.Divide-1"]
broadcast = ["pdpd"]
)";

std::string error_of(const std::string& text) {
    try {
        profiles::parse_profile(text, "p.toml");
    } catch (const core::Error& e) {
        EXPECT_EQ(e.kind(), core::ErrorKind::input);
        return e.what();
    }
    return "";
}

std::string entry(const std::string& body) {
    return "[[declare]]\nname = \"e\"\nfinding = \"f.md\"\n" + body;
}

TEST(Profile, ReadsEntries) {
    const profiles::Profile p = profiles::parse_profile(kGood, "p.toml");
    ASSERT_EQ(p.entries.size(), 2u);
    EXPECT_TRUE(p.entries[0].model.results_rounded_toward_zero);
    EXPECT_EQ(p.entries[0].line, 2);
    EXPECT_EQ(p.entries[1].status, results::Status::crashed);
    EXPECT_EQ(p.entries[1].when, profiles::InputsWhen::int_min_by_minus_one);
}

TEST(Profile, TopLevelOpsIsTheScopeOfEntriesThatNameNone) {
    const profiles::Profile p = profiles::parse_profile(
        "ops = [\"openvino.*\"]\n" + entry("behaviours = [\"subnormal_results_flushed\"]\n") +
            "[[declare]]\nname = \"d\"\nfinding = \"f.md\"\nstatus = \"CRASHED\"\n"
            "ops = [\"onnx.Div-*\"]\n",
        "p.toml");
    ASSERT_EQ(p.entries.size(), 2u);
    EXPECT_EQ(p.entries[0].scope.ops, std::vector<std::string>{"openvino.*"});
    EXPECT_EQ(p.entries[1].scope.ops, std::vector<std::string>{"onnx.Div-*"});
    EXPECT_NE(error_of("ops = [\"tosa.*\"]\n").find("'tosa.*' names no op version"),
              std::string::npos);
    EXPECT_NE(error_of("ops = \"onnx.*\"\n").find("'ops' must be an array"), std::string::npos);
}

// Writes `files` (name, text) into a fresh directory and returns it.
std::filesystem::path profile_dir(
    std::initializer_list<std::pair<const char*, std::string>> files) {
    const auto dir =
        std::filesystem::temp_directory_path() /
        ("profile_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "shared");
    for (const auto& [name, text] : files)
        std::ofstream(dir / name) << text;
    return dir;
}

std::string read_error(const std::filesystem::path& path) {
    try {
        profiles::read_profile(path.string());
    } catch (const core::Error& e) {
        return e.what();
    }
    return "";
}

TEST(Profile, IncludedEntriesAreSharedWithTheirOwnScope) {
    const std::string flush = "behaviours = [\"subnormal_results_flushed\"]\n";
    const auto dir = profile_dir(
        {{"a.toml", "include = [\"shared/lib.toml\"]\nops = [\"onnx.*\"]\n" + entry(flush)},
         {"shared/lib.toml",
          "ops = [\"onnx.Div-*\", \"openvino.Divide-1\"]\n[[declare]]\nname = \"s\"\n"
          "finding = \"f.md\"\nbehaviours = [\"division_by_reciprocal\"]\n"}});
    const profiles::Profile p = profiles::read_profile((dir / "a.toml").string());
    ASSERT_EQ(p.entries.size(), 2u);
    EXPECT_EQ(p.entries[0].scope.ops, std::vector<std::string>{"onnx.*"});
    EXPECT_EQ(p.entries[1].name, "s");
    EXPECT_EQ(p.entries[1].scope.ops,
              (std::vector<std::string>{"onnx.Div-*", "openvino.Divide-1"}));
    std::filesystem::remove_all(dir);
}

TEST(Profile, BadIncludesAreErrors) {
    const std::string flush = "ops = [\"onnx.*\"]\nbehaviours = [\"subnormal_results_flushed\"]\n";
    const auto dir = profile_dir({{"missing.toml", "include = [\"none.toml\"]\n"},
                                  {"self.toml", "include = [\"self.toml\"]\n"},
                                  {"twice.toml", "include = [\"shared/e.toml\"]\n" + entry(flush)},
                                  {"shared/e.toml", entry(flush)}});
    EXPECT_NE(read_error(dir / "missing.toml").find("cannot read profile"), std::string::npos);
    EXPECT_NE(read_error(dir / "self.toml").find("includes itself"), std::string::npos);
    EXPECT_NE(read_error(dir / "twice.toml").find("e.toml:1: entry 'e' repeats entry 'e' of"),
              std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST(Profile, ScopeMatchesOpGlobTypeRuleAndForm) {
    const profiles::Profile p = profiles::parse_profile(kGood, "p.toml");
    const auto& mul = *core::find_op_version("openvino.Multiply-1");
    const auto& onnx = *core::find_op_version("onnx.Mul-14");
    using core::BroadcastRule;
    EXPECT_TRUE(profiles::in_scope(p.entries[0], mul, core::ElementType::bf16, BroadcastRule::numpy,
                                   "runtime"));
    EXPECT_FALSE(profiles::in_scope(p.entries[0], mul, core::ElementType::f32, BroadcastRule::numpy,
                                    "runtime"));
    EXPECT_FALSE(profiles::in_scope(p.entries[0], onnx, core::ElementType::bf16,
                                    BroadcastRule::numpy, "runtime"));
    const auto& div = *core::find_op_version("openvino.Divide-1");
    EXPECT_FALSE(profiles::in_scope(p.entries[1], div, core::ElementType::i32, BroadcastRule::numpy,
                                    "runtime"));
    EXPECT_TRUE(profiles::in_scope(p.entries[1], div, core::ElementType::i32, BroadcastRule::pdpd,
                                   "const-b"));
}

TEST(Profile, ConditionOnFeaturesAndArchitecture) {
    profiles::Condition c;
    c.cpu_lacks = {"avx512_bf16"};
    platform::Platform avx2{"Linux", "x86_64", "AuthenticAMD", "EPYC", {"avx2", "fma"}, "", "",
                            "",      {}};
    platform::Platform zen4 = avx2;
    zen4.features.push_back("avx512_bf16");
    EXPECT_TRUE(c.holds(avx2));
    EXPECT_FALSE(c.holds(zen4));
    c.cpu_lacks.clear();
    c.cpu_has = {"avx512_bf16"};
    EXPECT_FALSE(c.holds(avx2));
    EXPECT_TRUE(c.holds(zen4));
    c.arch = "aarch64";
    EXPECT_FALSE(c.holds(zen4));
}

// An emulator's own deviations hold under it only, whatever CPU model it emulates.
TEST(Profile, ConditionOnEmulator) {
    profiles::Condition c;
    c.emulator = "qemu-x86_64";
    platform::Platform milan{"Linux", "x86_64", "emulated", "EPYC-Milan", {"avx2"}, "", "", "", {}};
    EXPECT_FALSE(c.holds(milan));  // the same CPU model, not emulated
    milan.emulator = "qemu-x86_64 version 7.2.22, user mode, -cpu EPYC-Milan";
    EXPECT_TRUE(c.holds(milan));
    c.emulator = "qemu-aarch64";
    EXPECT_FALSE(c.holds(milan));
    EXPECT_NE(error_of(entry("behaviours = [\"subnormal_results_flushed\"]\nops = [\"onnx.*\"]\n"
                             "emulator = \"qemu\"\n"))
                  .find("unknown emulator 'qemu' (qemu-x86_64, qemu-aarch64)"),
              std::string::npos);
}

// Issue 45: a GPU path's own deviations (ORT-web's JSEP without shader-f16) hold only where the
// hello names such a GPU; a CPU backend's run never meets a GPU condition.
TEST(Profile, ConditionOnTheGpuTheHelloNames) {
    const profiles::Profile p = profiles::parse_profile(
        entry("status = \"CRASHED\"\nops = [\"onnx.*\"]\ngpu = \"swiftshader\"\n"
              "gpu_lacks = [\"shader-f16\"]\n"),
        "p.toml");
    const profiles::Condition& c = p.entries.at(0).condition;
    platform::Platform host{"Linux", "x86_64", "AuthenticAMD", "EPYC", {"avx2"}, "", "", "", {}};
    EXPECT_FALSE(c.holds(host));  // no GPU
    host.gpu = {"webgpu", "google", "swiftshader", "", "", true, {"float32-filterable"}};
    EXPECT_TRUE(c.holds(host));
    host.gpu.features.push_back("shader-f16");
    EXPECT_FALSE(c.holds(host));
    host.gpu.features.pop_back();
    host.gpu.architecture = "nvidia-ampere";
    host.gpu.vendor = "nvidia";
    EXPECT_FALSE(c.holds(host));
    // A CPU backend lacks every GPU feature, yet a GPU condition is not about it.
    profiles::Condition lacks;
    lacks.gpu_lacks = {"shader-f16"};
    EXPECT_FALSE(lacks.holds(platform::Platform{}));
    profiles::Condition has;
    has.gpu_has = {"shader-f16"};
    EXPECT_FALSE(has.holds(host));
    host.gpu.features = {"shader-f16"};
    EXPECT_TRUE(has.holds(host));
    EXPECT_NE(error_of(entry("status = \"CRASHED\"\nops = [\"onnx.*\"]\ngpu = \"\"\n"))
                  .find("gpu names no GPU"),
              std::string::npos);
    EXPECT_NE(error_of(entry("status = \"CRASHED\"\nops = [\"onnx.*\"]\ngpu_has = [\"\"]\n"))
                  .find("gpu_has holds an empty feature name"),
              std::string::npos);
}

// The layout of openvino/cpu_plugin_profile.toml lines 18-34 before issue 44: `arch` stands under
// the comment that introduces f64-in-f32, yet TOML gives it to bf16-results-toward-zero above.
const char* kKeyUnderTheNextEntrysComment = R"(ops = ["openvino.*", "onnx.*"]

# bf16 on CPUs without AVX512-BF16: f32 results truncated into bf16 (openvino-23).
[[declare]]
name = "bf16-results-toward-zero"
finding = "docs/findings/openvino-23.md"
behaviours = ["results_rounded_toward_zero", "division_by_f32_reciprocal"]
dtypes = ["bf16"]
cpu_lacks = ["avx512_bf16"]

# f64 computed in f32 through saturating conversions, division by a reciprocal there
# (openvino-4, -5; openvino-onnx-1, -4); f32 division by a reciprocal too.
arch = "x86_64"

[[declare]]
name = "f64-in-f32"
finding = "docs/findings/openvino-4.md"
behaviours = ["computed_in_f32", "infinities_clamped", "division_by_reciprocal"]
dtypes = ["f64"]
)";

TEST(Profile, AKeyCutOffFromItsEntryIsAnError) {
    // The old layout: the error names the key's line and the entry TOML gives it to.
    EXPECT_NE(error_of(kKeyUnderTheNextEntrysComment)
                  .find("p.toml:13: 'arch' is cut off from the keys of entry "
                        "'bf16-results-toward-zero' (line 4) by a comment or blank line"),
              std::string::npos);
    // A blank line alone cuts it off too, and a comment between two keys.
    const std::string head = entry("status = \"CRASHED\"\nops = [\"onnx.*\"]\n");
    EXPECT_NE(error_of(head + "\narch = \"x86_64\"\n").find("p.toml:7: 'arch' is cut off"),
              std::string::npos);
    EXPECT_NE(error_of(head + "# x86 only\narch = \"x86_64\"\n").find("p.toml:7: 'arch'"),
              std::string::npos);
    // Keys together under their header read as they bind: comments above the header, and a
    // multi-line array, are fine.
    EXPECT_EQ(error_of("# an entry\n" + head + "arch = \"x86_64\"\n"), "");
    EXPECT_EQ(error_of(entry("behaviours = [\n  \"subnormal_results_flushed\",\n  # why\n]\n"
                             "ops = [\"onnx.*\"]\n\n# the next entry\n")),
              "");
}

TEST(Profile, Int32MinByMinusOneLooksAtTheLow32BitsAndNotAtZeros) {
    // openvino-14: i64 operands narrowed to i32; 0x1'80000000 / -1 is INT32_MIN / -1 there,
    // 2^32 is a zero divisor there (traps_in_i32 only), INT64_MIN / -1 is 0 / -1 there.
    const core::OpVersion& div = *core::find_op_version("onnx.Div-14");
    const auto holds = [&](profiles::InputsWhen w, std::int64_t x, std::int64_t y) {
        const core::Tensor a = core::make_tensor<core::ElementType::i64>({1}, {x}),
                           b = core::make_tensor<core::ElementType::i64>({1}, {y});
        return profiles::inputs_match(w, core::prepare_call(div, {}, a, b), a, b);
    };
    using W = profiles::InputsWhen;
    const std::int64_t low_min = 0x180000000, two32 = 0x100000000, min64 = INT64_MIN;
    EXPECT_TRUE(holds(W::int32_min_by_minus_one, low_min, -1));
    EXPECT_TRUE(holds(W::traps_in_i32, low_min, -1));
    EXPECT_FALSE(holds(W::int32_min_by_minus_one, 5, two32));
    EXPECT_TRUE(holds(W::traps_in_i32, 5, two32));
    EXPECT_FALSE(holds(W::int32_min_by_minus_one, min64, -1));
    EXPECT_TRUE(holds(W::int_min_by_minus_one, min64, -1));
    EXPECT_FALSE(holds(W::int32_min_by_minus_one, 7, 0));  // x / 0 is undefined, not this
}

TEST(Profile, BadProfilesNameTheProblemAndTheLine) {
    EXPECT_NE(error_of("[[declare]\n").find("p.toml:1"), std::string::npos);
    EXPECT_NE(error_of(entry("behaviours = [\"subnormals_gone\"]\nops = [\"onnx.Mul-14\"]\n"))
                  .find("unknown behaviour 'subnormals_gone'"),
              std::string::npos);
    EXPECT_NE(
        error_of(entry("behaviours = [\"subnormal_results_flushed\"]\nops = [\"onnx.Mul-99\"]\n"))
            .find("'onnx.Mul-99' names no op version"),
        std::string::npos);
    EXPECT_NE(
        error_of(entry("behaviours = [\"subnormal_results_flushed\"]\n")).find("has no 'ops'"),
        std::string::npos);
    EXPECT_NE(error_of(entry("behaviours = [\"subnormal_results_flushed\"]\nops = [\"onnx.*\"]\n"
                             "cpu_lacks = [\"avx512bf16\"]\n"))
                  .find("unknown CPU feature 'avx512bf16'"),
              std::string::npos);
    const std::string one =
        entry("behaviours = [\"subnormal_results_flushed\"]\nops = [\"onnx.*\"]\n");
    EXPECT_NE(error_of(one + one).find("repeats entry 'e' (line 1)"), std::string::npos);
    std::string renamed = one;
    renamed.replace(renamed.find("\"e\""), 3, "\"e2\"");
    EXPECT_NE(error_of(one + renamed).find("p.toml:6: entry 'e2' repeats entry 'e'"),
              std::string::npos);
    EXPECT_NE(error_of(entry("ops = [\"onnx.*\"]\n")).find("either 'behaviours' or 'status'"),
              std::string::npos);
    EXPECT_NE(error_of(entry("status = \"PASSED\"\nops = [\"onnx.*\"]\n")).find("not a deviation"),
              std::string::npos);
    EXPECT_NE(error_of(entry("status = \"CRASHED\"\nops = [\"onnx.*\"]\ncolour = 1\n"))
                  .find("unknown key 'colour'"),
              std::string::npos);
    EXPECT_NE(error_of(entry("status = \"CRASHED\"\nops = [\"onnx.*\"]\ndtypes = [\"f17\"]\n"))
                  .find("unknown element type 'f17'"),
              std::string::npos);
    EXPECT_NE(error_of("title = 1\n").find("unknown key 'title'"), std::string::npos);
}

// What `eltwise-validate profile` prints, written by hand from the op table (docs/SEMANTICS.md):
// onnx.Mul-1, -6 and -7 have no bf16, -13 and -14 have; trunc_for_floor changes integer division
// only, so it covers nothing of Multiply-1 and only i32 of Divide-1 among i32 and f32.
TEST(ProfileListing, PrintsEachEntryAsTheJudgeReadsIt) {
    const profiles::Profile p = profiles::parse_profile(R"(include = ["shared.toml"]
[[declare]]
name = "bf16-flushed"
finding = "docs/findings/x-1.md"
behaviours = ["subnormal_results_flushed"]
ops = ["onnx.Mul-*"]
dtypes = ["bf16"]

[[declare]]
name = "floors-truncate"
finding = "docs/findings/x-2.md"
behaviours = ["trunc_for_floor"]
ops = ["openvino.*"]
dtypes = ["i32", "f32"]
cpu_has = ["avx512_bf16"]
cpu_lacks = ["avx512_fp16"]

[[declare]]
name = "pdpd-crash"
finding = "docs/findings/x-3.md"
status = "CRASHED"
when = "int_min_by_minus_one"
ops = ["openvino.Divide-1"]
dtypes = ["i64", "i32"]
broadcast = ["pdpd"]
graph_forms = ["const-ab"]
arch = "x86_64"
)",
                                                        "dir/p.toml");
    EXPECT_EQ(profiles::profile_listing(p), R"(profile dir/p.toml
includes dir/shared.toml
3 entries

bf16-flushed  (dir/p.toml:2)
  finding     docs/findings/x-1.md
  ops         onnx.Mul-*
  scope       onnx.Mul-1: none
  scope       onnx.Mul-6: none
  scope       onnx.Mul-7: none
  scope       onnx.Mul-13: bf16
  scope       onnx.Mul-14: bf16
  broadcast   any
  graph forms any
  condition   every platform
  behaviours  subnormal_results_flushed

floors-truncate  (dir/p.toml:9)
  finding     docs/findings/x-2.md
  ops         openvino.*
  scope       openvino.Multiply-1: none
  scope       openvino.Divide-1: i32
  broadcast   any
  graph forms any
  condition   cpu has avx512_bf16, cpu lacks avx512_fp16
  behaviours  trunc_for_floor

pdpd-crash  (dir/p.toml:18)
  finding     docs/findings/x-3.md
  ops         openvino.Divide-1
  scope       openvino.Divide-1: i32, i64
  broadcast   pdpd
  graph forms const-ab
  condition   arch x86_64
  status      CRASHED when int_min_by_minus_one
)");
}

}  // namespace
