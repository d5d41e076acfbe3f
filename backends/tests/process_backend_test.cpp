// The out-of-process client against fixtures/fixture_backend.py, one fault at a time. Expected
// outputs are hand-computed; expected messages follow backends/PROTOCOL.md and
// process_backend.hpp.
#include "backends/process_backend.hpp"

#include <gtest/gtest.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>

#include "backends/child_process.hpp"
#include "backends/shared_tensors.hpp"
#include "core/op_table.hpp"

namespace backends {
namespace {

namespace fs = std::filesystem;
using core::ElementType;
using SteadyClock = std::chrono::steady_clock;

ProcessOptions fixture(std::vector<std::string> args, double startup_seconds = 20) {
    ProcessOptions options;
    options.argv = {ELTWISE_FIXTURE_PYTHON,
                    std::string(ELTWISE_FIXTURE_DIR) + "/fixture_backend.py"};
    options.argv.insert(options.argv.end(), args.begin(), args.end());
    options.startup_timeout_seconds = startup_seconds;
    return options;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

bool starts_with(const std::string& text, const std::string& prefix) {
    return text.compare(0, prefix.size(), prefix) == 0;
}

double seconds_since(SteadyClock::time_point start) {
    return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

// onnx.Mul-14 of a (2,2) f32 by a (2,) f32: [[1,2],[3,4]] * [0.5,-2] = [[0.5,-4],[1.5,-8]].
struct MulCase {
    core::Tensor a = core::make_tensor<ElementType::f32>({2, 2}, {1, 2, 3, 4});
    core::Tensor b = core::make_tensor<ElementType::f32>({2}, {0.5f, -2});

    Call call(std::int64_t id, double timeout_seconds = 20) const {
        Call c;
        c.id = id;
        c.op = core::find_op_version("onnx.Mul-14");
        c.a = &a;
        c.b = &b;
        c.timeout_seconds = timeout_seconds;
        return c;
    }
};

void expect_product(const Result& r) {
    ASSERT_EQ(r.outcome, Outcome::ok) << r.message;
    EXPECT_EQ(r.output.type, ElementType::f32);
    EXPECT_EQ(r.output.shape, (core::Shape{2, 2}));
    const auto v = r.output.values<float>();
    ASSERT_EQ(v.size(), 4u);
    EXPECT_EQ(v[0], 0.5f);
    EXPECT_EQ(v[1], -4.0f);
    EXPECT_EQ(v[2], 1.5f);
    EXPECT_EQ(v[3], -8.0f);
}

std::size_t open_fd_count() {
    const auto fds = fs::directory_iterator("/proc/self/fd");
    return static_cast<std::size_t>(std::distance(fs::begin(fds), fs::end(fds)));
}

// Every test must leave no child behind, not even a zombie, and no open descriptor.
class ProcessBackendTest : public ::testing::Test {
  protected:
    void SetUp() override {
        share_tensors();  // the process's own, opened once and kept, as in the validator
        fds_before_ = open_fd_count();
    }
    void TearDown() override {
        int status = 0;
        EXPECT_EQ(::waitpid(-1, &status, WNOHANG), -1) << "an unreaped child is left";
        EXPECT_EQ(errno, ECHILD);
        EXPECT_EQ(open_fd_count(), fds_before_) << "a descriptor leaked";
    }
    MulCase mul;

  private:
    std::size_t fds_before_ = 0;
};

// ---- split_command_line ----

TEST(SplitCommandLine, SplitsOnRunsOfBlanks) {
    EXPECT_EQ(split_command_line("  python3   run.py\t--fast\nx "),
              (std::vector<std::string>{"python3", "run.py", "--fast", "x"}));
}

TEST(SplitCommandLine, QuotesGroupAndJoin) {
    EXPECT_EQ(split_command_line("python3 'my backend.py' \"--name=x y\""),
              (std::vector<std::string>{"python3", "my backend.py", "--name=x y"}));
    EXPECT_EQ(split_command_line("a\"b c\"'d'e"), (std::vector<std::string>{"ab cde"}));
    EXPECT_EQ(split_command_line("x '' \"\""), (std::vector<std::string>{"x", "", ""}));
}

TEST(SplitCommandLine, BackslashesFollowShellRules) {
    EXPECT_EQ(split_command_line("a\\ b c\\\\d"), (std::vector<std::string>{"a b", "c\\d"}));
    EXPECT_EQ(split_command_line("'a\\b'"), (std::vector<std::string>{"a\\b"}));
    // In double quotes only $ ` " \ and newline are escaped; other backslashes stay.
    EXPECT_EQ(split_command_line("\"a\\\"b\\\\c\\$d\\e\""),
              (std::vector<std::string>{"a\"b\\c$d\\e"}));
    EXPECT_EQ(split_command_line("a \\\n b"), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(split_command_line("a\\"), (std::vector<std::string>{"a\\"}));  // as sh -c does
}

TEST(SplitCommandLine, RejectsUnterminatedQuotesAndEmptyCommands) {
    EXPECT_THROW(split_command_line("run 'abc"), std::invalid_argument);
    EXPECT_THROW(split_command_line("run \"abc\\\""), std::invalid_argument);
    EXPECT_THROW(split_command_line(""), std::invalid_argument);
    EXPECT_THROW(split_command_line(" \t\n"), std::invalid_argument);
}

// ---- StderrTail and describe_wait_status ----

TEST(StderrTail, KeepsTheLastLinesAcrossChunks) {
    StderrTail tail(3);
    tail.append("one\ntw");
    tail.append("o\nthree\nfo");
    EXPECT_EQ(tail.text(), "two\nthree\nfo");  // the unfinished line counts
    tail.append("ur\n");
    EXPECT_EQ(tail.text(), "two\nthree\nfour");
}

TEST(StderrTail, OneBigChunkKeepsOnlyItsLastLines) {
    StderrTail tail(2);
    tail.append("old\n");
    std::string chunk;
    for (int i = 0; i < 1000; ++i)
        chunk += "line " + std::to_string(i) + "\n";
    tail.append(chunk);
    EXPECT_EQ(tail.text(), "line 998\nline 999");
}

TEST(StderrTail, CapsLineWidthAndCanKeepNothing) {
    StderrTail tail(2);
    tail.append(std::string(300, 'a'));
    tail.append(std::string(300, 'a') + "\n");
    EXPECT_EQ(tail.text(), std::string(StderrTail::kMaxLineChars, 'a'));
    StderrTail none(0);
    none.append("x\ny");
    EXPECT_EQ(none.text(), "");
}

TEST(DescribeWaitStatus, NamesSignalsAndExitStatuses) {
    // Linux wait-status encoding: exit code in bits 8-15; a terminating signal in bits 0-6.
    EXPECT_EQ(describe_wait_status(3 << 8), "exit status 3");
    EXPECT_EQ(describe_wait_status(SIGSEGV), "SIGSEGV");
    EXPECT_EQ(describe_wait_status(SIGFPE), "SIGFPE");
    EXPECT_EQ(describe_wait_status(SIGKILL), "SIGKILL");
    EXPECT_EQ(describe_wait_status(40), "signal 40");
}

// ---- a well-behaved backend ----

TEST_F(ProcessBackendTest, EchoAnswersWithTheProduct) {
    auto backend = start_process_backend(fixture({}));
    EXPECT_EQ(backend->hello().name, "fixture");
    EXPECT_TRUE(backend->hello().claims("onnx.Mul-14", ElementType::f32));
    expect_product(backend->run(mul.call(1)));
    expect_product(backend->run(mul.call(2)));
}

TEST_F(ProcessBackendTest, ScratchDirLivesOnDevShmAndDiesWithTheBackend) {
    std::string scratch;
    {
        auto backend = start_process_backend(fixture({}));
        scratch = backend->hello().version;  // the fixture reports its ELTWISE_SCRATCH there
        if (fs::is_directory("/dev/shm")) {
            EXPECT_TRUE(starts_with(scratch, "/dev/shm/eltwise-")) << scratch;
        }
        EXPECT_TRUE(fs::is_directory(scratch)) << scratch;
        expect_product(backend->run(mul.call(7)));
        // The input files stay, to be rewritten in place by the next call; the output goes.
        std::set<std::string> left;
        for (const auto& entry : fs::directory_iterator(scratch))
            left.insert(entry.path().filename().string());
        EXPECT_EQ(left, (std::set<std::string>{"a.npy", "b.npy"})) << scratch;
    }
    EXPECT_FALSE(fs::exists(scratch)) << scratch;
}

TEST_F(ProcessBackendTest, PassesTheBackendsOwnAnswers) {
    struct Expected {
        const char* mode;
        Outcome outcome;
        const char* message;
    };
    const Expected answers[] = {{"rejected", Outcome::rejected, "bad shapes"},
                                {"unsupported", Outcome::unsupported, "no kernel"},
                                {"error", Outcome::error, "out of memory"}};
    for (const Expected& e : answers) {
        const fs::path state =
            fs::temp_directory_path() / ("eltwise-h1-starts-" + std::to_string(::getpid()));
        fs::remove(state);
        auto backend =
            start_process_backend(fixture({"--mode", e.mode, "--state", state.string()}));
        for (int id = 1; id <= 2; ++id) {
            const Result r = backend->run(mul.call(id));
            EXPECT_EQ(r.outcome, e.outcome) << e.mode;
            EXPECT_EQ(r.message, e.message);
        }
        std::ifstream starts(state);
        int count = 0;
        starts >> count;
        EXPECT_EQ(count, 1) << "a plain answer must not restart the backend";
        fs::remove(state);
    }
}

// PROTOCOL.md section 9, item 19: how a compiling backend compiles, and what it compiled.
TEST_F(ProcessBackendTest, CompileOfTheHelloAndCompilationsOfAnAnswerAreRead) {
    auto backend = start_process_backend(fixture({"--hello", "compile", "--mode", "compiled"}));
    ASSERT_TRUE(backend->hello().compile.has_value());
    EXPECT_EQ(backend->hello().compile->compiler, "fixturec");
    EXPECT_EQ(backend->hello().compile->shapes, "static");
    EXPECT_EQ(backend->hello().compile->latency_seconds, 12.5);
    const Result r = backend->run(mul.call(1));
    EXPECT_EQ(r.outcome, Outcome::unsupported);
    EXPECT_EQ(r.compilations, 2);
    EXPECT_FALSE(start_process_backend(fixture({}))->hello().compile.has_value());
}

TEST_F(ProcessBackendTest, CompileAndCompilationsOfTheWrongTypeAreProtocolErrors) {
    try {
        start_process_backend(fixture({"--hello", "bad-compile"}));
        ADD_FAILURE() << "a latency that is not a number was accepted";
    } catch (const BackendStartError& e) {
        EXPECT_TRUE(contains(e.what(), "compile.latency_seconds is not a number")) << e.what();
    }
    const Result r =
        start_process_backend(fixture({"--mode", "bad-compilations"}))->run(mul.call(1));
    EXPECT_EQ(r.outcome, Outcome::protocol_error);
    EXPECT_TRUE(contains(r.message, "compilations is not a count")) << r.message;
}

// PROTOCOL.md section 9, item 17: the output in shared memory, compared in place.
void expect_shared_product(const Result& r) {
    ASSERT_EQ(r.outcome, Outcome::ok) << r.message;
    ASSERT_TRUE(r.shared_output.has_value()) << "the output was not read from the region";
    EXPECT_TRUE(r.output.bytes.empty());
    expect_product({Outcome::ok, r.shared_output->copy(), ""});
}

TEST_F(ProcessBackendTest, RegionOutputIsReadInPlace) {
    auto backend = start_process_backend(fixture({"--hello", "region", "--mode", "region"}));
    EXPECT_TRUE(backend->hello().output_region);
    expect_shared_product(backend->run(mul.call(1)));
    expect_shared_product(backend->run(mul.call(2)));
}

TEST_F(ProcessBackendTest, RegionIsOfferedOnlyToBackendsThatAskForIt) {
    auto backend = start_process_backend(fixture({"--mode", "region-unoffered"}));
    const Result r = backend->run(mul.call(1));
    EXPECT_EQ(r.outcome, Outcome::protocol_error);
    EXPECT_TRUE(contains(r.message, "offered no out_region")) << r.message;
}

TEST_F(ProcessBackendTest, RegionLeftOverFromTheLastCallIsNeverAnAnswer) {
    auto backend =
        start_process_backend(fixture({"--hello", "region", "--mode", "region-then-stale"}));
    expect_shared_product(backend->run(mul.call(1)));
    const Result r = backend->run(mul.call(2));  // claims in_region, wrote nothing
    EXPECT_EQ(r.outcome, Outcome::protocol_error);
    EXPECT_TRUE(contains(r.message, "out_region /proc/")) << r.message;
}

TEST_F(ProcessBackendTest, RegionCannotBeTruncatedUnderTheValidator) {
    // Reading a truncated shared mapping would be SIGBUS: the seals must refuse the ftruncate.
    auto backend = start_process_backend(fixture({"--hello", "region", "--mode", "region-shrink"}));
    expect_shared_product(backend->run(mul.call(1)));
    expect_shared_product(backend->run(mul.call(2)));
}

// PROTOCOL.md section 9, item 18: the inputs in the validator's memory, which the backend reads
// in place and cannot change (the fixture tries write() and a writable shared mapping).
TEST_F(ProcessBackendTest, InputRegionIsReadInPlaceAndSealedAgainstTheBackend) {
    auto backend =
        start_process_backend(fixture({"--hello", "input-region", "--mode", "input-region-write"}));
    EXPECT_TRUE(backend->hello().input_region);
    expect_product(backend->run(mul.call(1)));
    expect_product(backend->run(mul.call(2)));
}

TEST_F(ProcessBackendTest, InputRegionIsOfferedOnlyToBackendsThatAskForIt) {
    auto backend = start_process_backend(fixture({"--mode", "input-files"}));
    EXPECT_FALSE(backend->hello().input_region);
    expect_product(backend->run(mul.call(1)));
}

TEST_F(ProcessBackendTest, Bf16WithoutDtypeReadsAsRawU16) {
    core::Tensor a = core::Tensor::zeros(ElementType::bf16, {2});
    a.values<std::uint16_t>()[0] = 0x3f80;  // 1.0
    a.values<std::uint16_t>()[1] = 0xc000;  // -2.0
    Call call = mul.call(1);
    call.a = call.b = &a;
    for (const char* mode : {"copy-a", "copy-a-dtype"}) {
        auto backend = start_process_backend(fixture({"--mode", mode}));
        const Result r = backend->run(call);
        ASSERT_EQ(r.outcome, Outcome::ok) << r.message;
        EXPECT_EQ(r.output.type,
                  std::string(mode) == "copy-a" ? ElementType::u16 : ElementType::bf16);
        EXPECT_EQ(r.output.values<std::uint16_t>()[0], 0x3f80);
        EXPECT_EQ(r.output.values<std::uint16_t>()[1], 0xc000);
    }
}

TEST_F(ProcessBackendTest, StderrFloodNeverBlocksTheAnswer) {
    auto backend = start_process_backend(fixture({"--mode", "flood"}));
    const auto start = SteadyClock::now();
    expect_product(backend->run(mul.call(1, 20)));
    EXPECT_LT(seconds_since(start), 10);
}

TEST_F(ProcessBackendTest, ExitBetweenCasesRestartsSilently) {
    auto backend = start_process_backend(fixture({"--mode", "answer-then-exit"}));
    for (int id = 1; id <= 3; ++id)
        expect_product(backend->run(mul.call(id)));
}

// ---- deaths ----

struct CrashMode {
    const char* mode;
    const char* signal_name;
};

class CrashTest : public ProcessBackendTest, public ::testing::WithParamInterface<CrashMode> {};

TEST_P(CrashTest, ReportsTheSignalWithStderrAndRestarts) {
    auto backend = start_process_backend(fixture({"--mode", GetParam().mode, "--on-id", "2"}));
    const Result r = backend->run(mul.call(2));
    EXPECT_EQ(r.outcome, Outcome::crashed);
    EXPECT_TRUE(starts_with(r.message, std::string(GetParam().signal_name) + "; stderr: "))
        << r.message;
    EXPECT_TRUE(contains(r.message, "about to die by")) << r.message;
    expect_product(backend->run(mul.call(3)));
}

INSTANTIATE_TEST_SUITE_P(Signals, CrashTest,
                         ::testing::Values(CrashMode{"segv", "SIGSEGV"}, CrashMode{"fpe", "SIGFPE"},
                                           CrashMode{"abrt", "SIGABRT"}),
                         [](const auto& info) { return std::string(info.param.mode); });

TEST_F(ProcessBackendTest, ExitMidCaseIsACrashWithItsStatus) {
    auto backend = start_process_backend(fixture({"--mode", "exit", "--on-id", "1"}));
    const Result r = backend->run(mul.call(1));
    EXPECT_EQ(r.outcome, Outcome::crashed);
    EXPECT_EQ(r.message, "exit status 3; stderr: giving up mid-case");
    expect_product(backend->run(mul.call(2)));
}

TEST_F(ProcessBackendTest, CrashReportKeepsTheLastStderrLines) {
    ProcessOptions options = fixture({"--mode", "many-lines"});
    options.stderr_tail_lines = 3;
    auto backend = start_process_backend(options);
    const Result r = backend->run(mul.call(1));
    EXPECT_EQ(r.outcome, Outcome::crashed);
    // The last line was left unfinished at 1000 'y's; the tail keeps its first 500.
    EXPECT_EQ(r.message, "SIGSEGV; stderr: line 98\nline 99\n" + std::string(500, 'y'));
}

TEST_F(ProcessBackendTest, ClosedStdoutIsACrashWithoutWaitingForTheTimeout) {
    auto backend = start_process_backend(fixture({"--mode", "close-stdout", "--on-id", "1"}));
    const auto start = SteadyClock::now();
    const Result r = backend->run(mul.call(1, 20));
    EXPECT_LT(seconds_since(start), 10);
    EXPECT_EQ(r.outcome, Outcome::crashed);
    EXPECT_EQ(r.message, "closed its stdout without answering; stderr: closing stdout");
    expect_product(backend->run(mul.call(2)));
}

bool process_gone(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string pid_text, comm, state;
    if (!(stat >> pid_text >> comm >> state)) return true;
    return state == "Z" || state == "X";  // killed; only its new parent's reaping is left
}

TEST_F(ProcessBackendTest, CrashKillsGrandchildrenThatHoldThePipes) {
    auto backend = start_process_backend(fixture({"--mode", "grandchild", "--on-id", "1"}));
    const auto start = SteadyClock::now();
    const Result r = backend->run(mul.call(1, 10));
    EXPECT_LT(seconds_since(start), 5) << "the death went unnoticed while the pipes stayed open";
    EXPECT_EQ(r.outcome, Outcome::crashed);
    EXPECT_TRUE(starts_with(r.message, "SIGSEGV; stderr: grandchild ")) << r.message;
    const pid_t grandchild = std::stoi(r.message.substr(r.message.find("grandchild ") + 11));
    bool gone = false;
    for (int i = 0; i < 200 && !gone; ++i) {
        gone = process_gone(grandchild);
        if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_TRUE(gone) << "grandchild " << grandchild << " survived";
    expect_product(backend->run(mul.call(2)));
}

// ---- hangs ----

TEST_F(ProcessBackendTest, HangIsKilledAfterTheTimeout) {
    auto backend = start_process_backend(fixture({"--mode", "hang", "--on-id", "1"}));
    const auto start = SteadyClock::now();
    const Result r = backend->run(mul.call(1, 1));
    const double took = seconds_since(start);
    EXPECT_EQ(r.outcome, Outcome::hung);
    EXPECT_TRUE(starts_with(r.message, "no answer within 1 s")) << r.message;
    EXPECT_GE(took, 1.0);
    EXPECT_LT(took, 4.0);
    expect_product(backend->run(mul.call(2)));
}

TEST_F(ProcessBackendTest, ClosedStdinNeitherKillsUsNorCountsAsAnAnswer) {
    // As a program starts; the client must protect itself whatever an earlier test did.
    const auto previous = std::signal(SIGPIPE, SIG_DFL);
    auto backend = start_process_backend(fixture({"--mode", "close-stdin", "--on-id", "1"}));
    expect_product(backend->run(mul.call(1)));
    const Result r = backend->run(mul.call(2, 1));  // the request meets EPIPE: no SIGPIPE for us
    EXPECT_EQ(r.outcome, Outcome::hung) << r.message;
    expect_product(backend->run(mul.call(3)));
    std::signal(SIGPIPE, previous);
}

// ---- garbage ----

struct GarbageMode {
    const char* mode;
    const char* message_part;
};

class GarbageTest : public ProcessBackendTest, public ::testing::WithParamInterface<GarbageMode> {};

TEST_P(GarbageTest, IsAProtocolErrorAndRestarts) {
    auto backend = start_process_backend(fixture({"--mode", GetParam().mode, "--on-id", "5"}));
    const Result r = backend->run(mul.call(5));
    EXPECT_EQ(r.outcome, Outcome::protocol_error);
    EXPECT_TRUE(contains(r.message, GetParam().message_part)) << r.message;
    expect_product(backend->run(mul.call(6)));
}

INSTANTIATE_TEST_SUITE_P(
    Answers, GarbageTest,
    ::testing::Values(GarbageMode{"garbage", "not a JSON line: this is not json"},
                      GarbageMode{"wrong-id", "answer has id 1005, expected 5"},
                      GarbageMode{"no-file", "file not found"},
                      GarbageMode{"truncated", "data is shorter than the header says"},
                      GarbageMode{"long-line", "answer line longer than 1 MiB"},
                      GarbageMode{"symlink", "is a symbolic link"}),
    [](const auto& info) {
        std::string name = info.param.mode;
        std::erase(name, '-');
        return name;
    });

// ---- resource limits (issue 11) ----

// With --mode sized-output --out-elements id, the answer to call `id` is a valid f32 file of
// shape (id,): a 128-byte header (numpy's padding) and 4 * id bytes of zeros, sparse.
core::Tensor f32_zeros(core::Shape shape) {
    return core::Tensor::zeros(ElementType::f32, std::move(shape));
}

// Issue 44: a file above the limit is not read, but its header is. When the header agrees with
// the file's size, the answer is ok with the shape it names, unread (the judge makes it FAILED,
// shape); a header that lies about the size is a PROTOCOL_ERROR.
TEST_F(ProcessBackendTest, LimitsOversizedOutputFileIsRefusedUnread) {
    auto backend =
        start_process_backend(fixture({"--mode", "sized-output", "--out-elements", "id"}));
    const auto start = SteadyClock::now();
    // 2^28 elements: 128 + 2^30 bytes, against the 16 bytes of the (2,2) f32 product.
    const Result r = backend->run(mul.call(268435456));
    EXPECT_LT(seconds_since(start), 2);
    ASSERT_EQ(r.outcome, Outcome::ok) << r.message;
    ASSERT_TRUE(r.unread_output);
    EXPECT_EQ(r.unread_output->shape, (core::Shape{268435456}));
    EXPECT_EQ(r.unread_output->type, ElementType::f32);
    EXPECT_EQ(r.unread_output->file_bytes, 1073741952u);
    EXPECT_TRUE(r.output.bytes.empty());            // the data was not read
    const Result next = backend->run(mul.call(2));  // a wrong but tiny answer: (2,) zeros
    ASSERT_EQ(next.outcome, Outcome::ok) << next.message;
    EXPECT_FALSE(next.unread_output);
    EXPECT_EQ(next.output.shape, (core::Shape{2}));
}

TEST_F(ProcessBackendTest, LimitsOversizedOutputFileWhoseHeaderLiesIsAProtocolError) {
    auto backend = start_process_backend(
        fixture({"--mode", "sized-output", "--out-elements", "id", "--header-extra", "1"}));
    const auto start = SteadyClock::now();
    const Result r = backend->run(mul.call(268435456));  // the header claims 2^28 + 1 elements
    EXPECT_LT(seconds_since(start), 2);
    EXPECT_EQ(r.outcome, Outcome::protocol_error);
    EXPECT_TRUE(r.message.starts_with(
        "output file is 1073741952 bytes, far more than the expected output's 16 bytes: "))
        << r.message;
    EXPECT_NE(r.message.find("data is shorter than the header says"), std::string::npos)
        << r.message;
}

// The limit is 2 x the expected data bytes + 1 MiB: a file of 128 + 4 * n bytes is read up to
// n = (2 * expected + 1048576 - 128) / 4 (a wrong shape, for the comparison to report).
TEST_F(ProcessBackendTest, LimitsOutputFileMayBeTwiceTheExpectedBytesPlusOneMiB) {
    const core::Tensor a23 = f32_zeros({2, 3}), b3 = f32_zeros({3}), b5 = f32_zeros({5});
    struct Limit {
        const char* what;
        Call call;
        std::int64_t expected_bytes;
        std::int64_t largest;  // the n above
    };
    Call legacy = mul.call(0);  // ONNX Mul-6, broadcast=1: the output has A's shape (2,3)
    legacy.op = core::find_op_version("onnx.Mul-6");
    legacy.attributes = {{"broadcast", "1"}};
    legacy.a = &a23;
    legacy.b = &b3;
    Call invalid = mul.call(0);  // (2,2) by (5,) does not broadcast: the larger input counts
    invalid.b = &b5;
    const Limit limits[] = {{"numpy (2,2) x (2,)", mul.call(0), 16, 262120},
                            {"legacy (2,3) x (3,)", legacy, 24, 262124},
                            {"invalid (2,2) x (5,)", invalid, 20, 262122}};
    auto backend =
        start_process_backend(fixture({"--mode", "sized-output", "--out-elements", "id"}));
    for (Limit limit : limits) {
        SCOPED_TRACE(limit.what);
        const std::int64_t largest = limit.largest;
        limit.call.id = largest;
        const Result read = backend->run(limit.call);
        ASSERT_EQ(read.outcome, Outcome::ok) << read.message;
        EXPECT_EQ(read.output.shape, (core::Shape{largest}));
        EXPECT_FALSE(read.unread_output);
        limit.call.id = largest + 1;  // above the limit: only its header is read
        const Result unread = backend->run(limit.call);
        ASSERT_EQ(unread.outcome, Outcome::ok) << unread.message;
        ASSERT_TRUE(unread.unread_output);
        EXPECT_EQ(unread.unread_output->shape, (core::Shape{largest + 1}));
        EXPECT_EQ(unread.unread_output->file_bytes, std::uint64_t(128 + 4 * (largest + 1)));
        EXPECT_TRUE(unread.output.bytes.empty());
    }
}

TEST_F(ProcessBackendTest, LimitsEndlessLineIsCutWithoutWaitingForTheTimeout) {
    auto backend = start_process_backend(fixture({"--mode", "endless", "--on-id", "1"}));
    const auto start = SteadyClock::now();
    const Result r = backend->run(mul.call(1, 20));
    EXPECT_LT(seconds_since(start), 3);
    EXPECT_EQ(r.outcome, Outcome::protocol_error);
    EXPECT_EQ(r.message, "answer line longer than 1 MiB");
    expect_product(backend->run(mul.call(2)));
}

// The fixture writes the right product outside its scratch directory and answers ok with an extra
// "out" field naming it. We read only our own path; inotify proves the other file is never read.
TEST_F(ProcessBackendTest, LimitsOutputWrittenOutsideTheScratchDirIsNeverRead) {
    const fs::path outside =
        fs::temp_directory_path() / ("eltwise-limits-outside-" + std::to_string(::getpid()));
    fs::remove_all(outside);
    fs::create_directories(outside);
    const int watch = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    ASSERT_GE(watch, 0);
    // The fixture only writes there (IN_MODIFY, IN_CLOSE_WRITE); a reader would cause these.
    EXPECT_GE(::inotify_add_watch(watch, outside.c_str(), IN_ACCESS | IN_CLOSE_NOWRITE), 0);
    {
        auto backend = start_process_backend(
            fixture({"--mode", "outside", "--outside-dir", outside.string(), "--on-id", "1"}));
        const std::string scratch = backend->hello().version;
        const Result r = backend->run(mul.call(1));
        EXPECT_EQ(r.outcome, Outcome::protocol_error);
        EXPECT_EQ(r.message, "npy file '" + scratch + "/1.out.npy': file not found");
        expect_product(backend->run(mul.call(2)));
    }
    char events[4096];
    EXPECT_EQ(::read(watch, events, sizeof events), -1) << "a file outside the scratch was read";
    EXPECT_EQ(errno, EAGAIN);
    ::close(watch);
    EXPECT_TRUE(fs::exists(outside / "1.out.npy")) << "the fixture wrote nothing outside";
    fs::remove_all(outside);
}

// A `sleep 300` that the fixture starts with its stdio on /dev/null, so that it holds none of our
// pipes and nothing but the process-group kill can end it.
class GrandchildTest : public ProcessBackendTest {
  protected:
    void SetUp() override {
        ProcessBackendTest::SetUp();
        fs::remove(pid_file_);
    }
    void TearDown() override {
        if (pid_ > 0 && !process_gone(pid_)) ::kill(pid_, SIGKILL);  // not left behind on failure
        fs::remove(pid_file_);
        ProcessBackendTest::TearDown();
    }
    ProcessOptions orphan_fixture(const char* mode) const {
        return fixture({"--mode", mode, "--on-id", "1", "--pid-file", pid_file_.string()});
    }
    // The grandchild's pid, which the fixture wrote before answering; checks that it is alive
    // unless the backend's group may already have been killed.
    pid_t grandchild(bool alive = true) {
        std::ifstream in(pid_file_);
        in >> pid_;
        EXPECT_GT(pid_, 0) << "no pid in " << pid_file_;
        if (alive) {
            EXPECT_FALSE(process_gone(pid_)) << "the grandchild never ran";
        }
        return pid_;
    }
    // Dead within 2 s: gone (ESRCH), or a zombie that only its new parent's reaping keeps.
    static bool dies(pid_t pid) {
        for (int i = 0; i < 200; ++i) {
            if (process_gone(pid)) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return false;
    }

  private:
    fs::path pid_file_ =
        fs::temp_directory_path() / ("eltwise-limits-grandchild-" + std::to_string(::getpid()));
    pid_t pid_ = -1;
};

TEST_F(GrandchildTest, LimitsGrandchildDiesWithTheBackend) {
    auto backend = start_process_backend(orphan_fixture("orphan"));
    expect_product(backend->run(mul.call(1)));
    const pid_t pid = grandchild();
    backend.reset();  // the fixture exits normally on the closed stdin; its group goes with it
    EXPECT_TRUE(dies(pid)) << "grandchild " << pid << " survived the backend";
}

TEST_F(GrandchildTest, LimitsGrandchildDiesWithACrashedBackend) {
    auto backend = start_process_backend(orphan_fixture("orphan-segv"));
    const Result r = backend->run(mul.call(1));
    EXPECT_EQ(r.outcome, Outcome::crashed);
    // run() kills the crashed backend's group before returning, so the grandchild may be gone
    // (and reaped) already: only its pid is checked here. The same fixture mode without a crash
    // (LimitsGrandchildDiesWithTheBackend) shows that the grandchild does run.
    const pid_t pid = grandchild(false);
    EXPECT_TRUE(dies(pid)) << "grandchild " << pid << " survived the crash";
    expect_product(backend->run(mul.call(2)));
}

TEST_F(GrandchildTest, LimitsGrandchildDiesWhenTheBackendExitsBetweenCases) {
    auto backend = start_process_backend(orphan_fixture("orphan-then-exit"));
    expect_product(backend->run(mul.call(1)));
    const pid_t pid = grandchild();
    expect_product(backend->run(mul.call(2)));  // a fresh child; the old group is killed
    EXPECT_TRUE(dies(pid)) << "grandchild " << pid << " survived its parent's exit";
}

TEST_F(ProcessBackendTest, LimitsStderrFloodWithoutNewlinesNeverBlocksTheAnswer) {
    auto backend = start_process_backend(fixture({"--mode", "flood-no-newline"}));
    const auto start = SteadyClock::now();
    expect_product(backend->run(mul.call(1, 20)));  // after 100 MiB of stderr in one line
    EXPECT_LT(seconds_since(start), 10);
}

TEST_F(ProcessBackendTest, LimitsStderrTailOfAnEndlessLineStaysBounded) {
    ChildProcess child({ELTWISE_FIXTURE_PYTHON, "-c",
                        "import sys\n"
                        "for _ in range(100): sys.stderr.buffer.write(b'z' * (1 << 20))\n"
                        "sys.stderr.flush()\n"
                        "print('done', flush=True)\n"},
                       {}, 20);
    std::string line;
    EXPECT_EQ(child.exchange({}, SteadyClock::now() + std::chrono::seconds(20), line),
              ChildProcess::Wait::line);
    EXPECT_EQ(line, "done");
    const std::string tail = child.stderr_tail();
    ASSERT_LE(tail.size(), StderrTail::kMaxLineChars);  // no 100 MiB failure message
    EXPECT_EQ(tail, std::string(StderrTail::kMaxLineChars, 'z'));
}

// ---- start-up ----

std::string start_error(const ProcessOptions& options) {
    try {
        start_process_backend(options);
    } catch (const BackendStartError& e) {
        return e.what();
    }
    ADD_FAILURE() << "the backend started";
    return "";
}

TEST_F(ProcessBackendTest, NoHelloWithinTheStartupTimeout) {
    const auto start = SteadyClock::now();
    const std::string message = start_error(fixture({"--hello", "none"}, 1));
    EXPECT_LT(seconds_since(start), 4);
    EXPECT_TRUE(contains(message, "fixture_backend.py --hello none`: no hello within 1 s"))
        << message;
    EXPECT_TRUE(contains(message, "; stderr: thinking about a hello")) << message;
}

TEST_F(ProcessBackendTest, ExitBeforeTheHello) {
    const std::string message = start_error(fixture({"--hello", "exit"}));
    EXPECT_TRUE(contains(message, "exited before its hello (exit status 2); stderr: cannot start"))
        << message;
}

TEST_F(ProcessBackendTest, HelloThatIsNotJsonOrOfAnotherProtocol) {
    std::string message = start_error(fixture({"--hello", "not-json"}));
    EXPECT_TRUE(contains(message, "bad hello: not a JSON line: hello there")) << message;
    message = start_error(fixture({"--hello", "wrong-protocol"}));
    EXPECT_TRUE(contains(message, "bad hello: protocol \"eltwise-backend/0\"")) << message;
}

TEST_F(ProcessBackendTest, ProgramNotFound) {
    ProcessOptions options;
    options.argv = {"eltwise-no-such-backend-h1"};
    const std::string message = start_error(options);
    EXPECT_TRUE(contains(message, "cannot start 'eltwise-no-such-backend-h1'")) << message;
    EXPECT_TRUE(contains(message, "No such file or directory")) << message;
}

TEST_F(ProcessBackendTest, FailedRestartFailsOneCallAndTheNextRetries) {
    const fs::path state =
        fs::temp_directory_path() / ("eltwise-h1-restart-" + std::to_string(::getpid()));
    fs::remove(state);
    auto backend = start_process_backend(fixture({"--mode", "segv", "--on-id", "1", "--state",
                                                  state.string(), "--bad-hello-on-start", "2"}));
    EXPECT_EQ(backend->run(mul.call(1)).outcome, Outcome::crashed);
    const Result r = backend->run(mul.call(2));  // start 2 says a wrong protocol
    EXPECT_EQ(r.outcome, Outcome::protocol_error);
    EXPECT_TRUE(starts_with(r.message, "restart failed: backend `")) << r.message;
    EXPECT_TRUE(contains(r.message, "eltwise-backend/0")) << r.message;
    expect_product(backend->run(mul.call(3)));  // start 3 is fine
    fs::remove(state);
}

}  // namespace
}  // namespace backends
