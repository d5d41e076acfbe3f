// eltwise-backend-host driven as a child process over pipes, with the optimized, trivial, fault
// and planted-bug plugins. Expected values are worked by hand from the specs (comments show
// the arithmetic); requests and files are built with the protocol and .npy code of the
// validator side, not with the host's.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <span>
#include <sstream>

#include "backend_host/tests/host_process.hpp"
#include "backends/protocol.hpp"
#include "core/op_table.hpp"
#include "io/npy_file.hpp"

namespace backend_host {

// The eltwise-backend/1 messages (backends/protocol.hpp) the host reads and writes.
using backends::Answer;
using backends::Hello;
using backends::OutRegion;
using backends::parse_hello;
using backends::parse_response;
using backends::ProtocolError;
using backends::Request;
using backends::Response;
using backends::TensorFile;
using backends::to_line;
namespace {

using core::ElementType;
namespace fs = std::filesystem;

constexpr double kAnswerTimeout = 20;  // generous: sanitizer builds start slowly

class NativeBackendTest : public ::testing::Test {
  protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "native-backend-test-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
        dir_ = pattern;
    }
    void TearDown() override {
        host_.reset();
        fs::remove_all(dir_);
    }

    // Starts the host with `plugin` and its arguments, and returns its first line.
    std::string start(const std::string& plugin, std::vector<std::string> args = {}) {
        args.insert(args.begin(), {ELTWISE_HOST_PATH, plugin});
        host_ = std::make_unique<HostProcess>(args, stderr_path());
        return host_->read_line(kAnswerTimeout).value_or("(no hello)");
    }
    // Starts the host and expects it to end with exit status 2 (a usage error).
    std::string start_fails(std::vector<std::string> args) {
        args.insert(args.begin(), ELTWISE_HOST_PATH);
        host_ = std::make_unique<HostProcess>(args, stderr_path());
        const std::optional<int> status = host_->wait(kAnswerTimeout);
        EXPECT_TRUE(status && WIFEXITED(*status) && WEXITSTATUS(*status) == 2);
        return stderr_text();
    }

    std::string stderr_path() const { return (dir_ / "host.stderr").string(); }
    std::string stderr_text() const {
        std::ifstream in(stderr_path());
        return {std::istreambuf_iterator<char>(in), {}};
    }

    TensorFile input(const std::string& name, const core::Tensor& t) {
        const std::string path = (dir_ / (name + ".npy")).string();
        io::write_npy(path, t);
        return {path, t.type, t.shape};
    }
    Request request(const std::string& op, const core::Tensor& a, const core::Tensor& b,
                    core::AttributeMap attributes = {}) {
        const std::int64_t id = ++last_id_;
        const std::string stem = std::to_string(id);
        return {id,
                op,
                std::move(attributes),
                input(stem + ".a", a),
                input(stem + ".b", b),
                (dir_ / (stem + ".out.npy")).string()};
    }

    Response exchange(const Request& r) {
        EXPECT_TRUE(host_->send(to_line(r)));
        const auto line = host_->read_line(kAnswerTimeout);
        if (!line) throw std::runtime_error("no answer");
        return parse_response(*line);
    }
    // Runs a request that must succeed and returns its output as `expected_type`.
    core::Tensor run_ok(const Request& r, ElementType expected_type) {
        const Response response = exchange(r);
        EXPECT_EQ(response.id, r.id);
        EXPECT_EQ(response.status, Answer::ok) << response.message;
        EXPECT_EQ(response.dtype, expected_type);
        return io::read_npy(r.out, expected_type);
    }

    std::string npy_header_of(const std::string& path) const {
        std::ifstream in(path, std::ios::binary);
        std::string head(128, '\0');
        in.read(head.data(), static_cast<std::streamsize>(head.size()));
        return head;
    }

    fs::path dir_;
    std::unique_ptr<HostProcess> host_;
    std::int64_t last_id_ = 0;
};

template <ElementType T>
core::Tensor tensor(core::Shape shape, const std::vector<core::Storage<T>>& values) {
    return core::make_tensor<T>(std::move(shape), values);
}

template <ElementType T>
std::vector<core::Storage<T>> values_of(const core::Tensor& t) {
    const auto v = t.values<core::Storage<T>>();
    return {v.begin(), v.end()};
}

std::vector<std::uint16_t> half_bits(const core::Tensor& t) {
    std::vector<std::uint16_t> out;
    for (const core::Half h : t.values<core::Half>())
        out.push_back(h.bits);
    return out;
}

std::vector<std::uint32_t> f32_bits(const core::Tensor& t) {
    std::vector<std::uint32_t> out;
    for (const float f : t.values<float>()) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &f, sizeof bits);
        out.push_back(bits);
    }
    return out;
}

core::Tensor f16(core::Shape shape, const std::vector<std::uint16_t>& bits) {
    std::vector<core::Half> v;
    for (const std::uint16_t b : bits)
        v.push_back(core::Half{b});
    return tensor<ElementType::f16>(std::move(shape), v);
}

// ---- the host with the optimized plugin ----

TEST_F(NativeBackendTest, HelloClaimsEveryOpVersionAndTypeOfTheTable) {
    const Hello hello = parse_hello(start(ELTWISE_OPTIMIZED_PLUGIN_PATH));
    EXPECT_EQ(hello.name, "optimized-plugin");
    EXPECT_EQ(hello.ops.size(), core::op_versions().size());
    for (const core::OpVersion& op : core::op_versions()) {
        ASSERT_TRUE(hello.claims(op.id())) << op.id();
        EXPECT_EQ(hello.ops.at(op.id()).size(), op.element_types.size()) << op.id();
        for (const ElementType t : op.element_types)
            EXPECT_TRUE(hello.claims(op.id(), t)) << op.id() << " " << core::name(t);
    }
}

TEST_F(NativeBackendTest, U8MultiplyWrapsModulo256) {
    start(ELTWISE_OPTIMIZED_PLUGIN_PATH);
    // 200 * 2 = 400 = 256 + 144; 15 * 17 = 255 fits.
    const auto r = request("onnx.Mul-14", tensor<ElementType::u8>({2}, {200, 15}),
                           tensor<ElementType::u8>({2}, {2, 17}));
    const core::Tensor out = run_ok(r, ElementType::u8);
    EXPECT_EQ(out.shape, core::Shape{2});
    EXPECT_EQ(values_of<ElementType::u8>(out), (std::vector<std::uint8_t>{144, 255}));
    EXPECT_NE(npy_header_of(r.out).find("'descr': '|u1'"), std::string::npos);
}

// PROTOCOL.md section 9, item 17. The host maps any regular file of at least `bytes` bytes as
// the region; the validator's own is a sealed memfd (backends/tests/process_backend_test.cpp).
TEST_F(NativeBackendTest, OutputGoesIntoTheOfferedRegion) {
    EXPECT_TRUE(parse_hello(start(ELTWISE_OPTIMIZED_PLUGIN_PATH)).output_region);
    const std::string region = (dir_ / "region").string();
    std::ofstream{region}.close();
    fs::resize_file(region, 4096);
    for (std::uint8_t call = 0; call < 2; ++call) {  // the second call reuses the mapping
        Request r =
            request("onnx.Mul-14", tensor<ElementType::u8>({2}, {200, 15}),
                    tensor<ElementType::u8>({2}, {2, static_cast<std::uint8_t>(17 + call)}));
        r.out_region = OutRegion{region, 4096};
        const Response response = exchange(r);
        ASSERT_EQ(response.status, Answer::ok) << response.message;
        EXPECT_TRUE(response.in_region);
        EXPECT_FALSE(fs::exists(r.out)) << "no file when the output is in the region";
        std::ifstream in(region, std::ios::binary);
        std::vector<char> bytes(4096);
        in.read(bytes.data(), 4096);
        const core::TensorView out =
            io::view_npy(std::as_bytes(std::span(bytes)), std::nullopt, region);
        EXPECT_EQ(out.shape, core::Shape{2});
        const auto v = out.values<std::uint8_t>();  // 200 * 2 wraps to 144; 15 * 17 = 255
        EXPECT_EQ(std::vector<std::uint8_t>(v.begin(), v.end()),
                  (std::vector<std::uint8_t>{144, static_cast<std::uint8_t>(15 * (17 + call))}));
    }
}

TEST_F(NativeBackendTest, OutputThatDoesNotFitTheRegionGoesToTheFile) {
    start(ELTWISE_OPTIMIZED_PLUGIN_PATH);
    const std::string small = (dir_ / "small").string();
    std::ofstream{small}.close();
    fs::resize_file(small, 64);  // shorter than any .npy header
    for (const OutRegion& offer :
         {OutRegion{small, 64}, OutRegion{(dir_ / "none").string(), 4096}}) {
        Request r = request("onnx.Mul-14", tensor<ElementType::u8>({2}, {200, 15}),
                            tensor<ElementType::u8>({2}, {2, 17}));
        r.out_region = offer;
        const Response response = exchange(r);
        ASSERT_EQ(response.status, Answer::ok) << response.message;
        EXPECT_FALSE(response.in_region) << offer.path;
        EXPECT_EQ(values_of<ElementType::u8>(io::read_npy(r.out, ElementType::u8)),
                  (std::vector<std::uint8_t>{144, 255}));
    }
}

TEST_F(NativeBackendTest, OnnxIntegerDivisionTruncates) {
    start(ELTWISE_OPTIMIZED_PLUGIN_PATH);
    // -7 / 2 = -3.5 -> -3; 7 / -2 -> -3; 7 / 2 -> 3.
    const core::Tensor out =
        run_ok(request("onnx.Div-14", tensor<ElementType::i32>({3}, {-7, 7, 7}),
                       tensor<ElementType::i32>({3}, {2, -2, 2})),
               ElementType::i32);
    EXPECT_EQ(values_of<ElementType::i32>(out), (std::vector<std::int32_t>{-3, -3, 3}));
}

TEST_F(NativeBackendTest, OpenVinoPythonDivisionFloors) {
    start(ELTWISE_OPTIMIZED_PLUGIN_PATH);
    // m_pythondiv=true: floor(-3.5) = -4.
    const core::Tensor out =
        run_ok(request("openvino.Divide-1", tensor<ElementType::i32>({}, {-7}),
                       tensor<ElementType::i32>({}, {2}), {{"m_pythondiv", "true"}}),
               ElementType::i32);
    EXPECT_EQ(out.shape, core::Shape{});
    EXPECT_EQ(values_of<ElementType::i32>(out), (std::vector<std::int32_t>{-4}));
}

TEST_F(NativeBackendTest, BroadcastsColumnTimesRow) {
    start(ELTWISE_OPTIMIZED_PLUGIN_PATH);
    // (2,1) x (3) -> (2,3): [[1],[2]] * [1,10,100].
    const core::Tensor out = run_ok(request("onnx.Mul-14", tensor<ElementType::f32>({2, 1}, {1, 2}),
                                            tensor<ElementType::f32>({3}, {1, 10, 100})),
                                    ElementType::f32);
    EXPECT_EQ(out.shape, (core::Shape{2, 3}));
    EXPECT_EQ(values_of<ElementType::f32>(out), (std::vector<float>{1, 10, 100, 2, 20, 200}));
}

TEST_F(NativeBackendTest, EmptyOutputIsAHeaderOnlyFile) {
    start(ELTWISE_OPTIMIZED_PLUGIN_PATH);
    const core::Tensor out = run_ok(request("onnx.Mul-14", tensor<ElementType::f32>({0, 3}, {}),
                                            tensor<ElementType::f32>({3}, {1, 2, 3})),
                                    ElementType::f32);
    EXPECT_EQ(out.shape, (core::Shape{0, 3}));
    EXPECT_TRUE(out.bytes.empty());
}

TEST_F(NativeBackendTest, Bf16TravelsAsU2BitsAndIsNamedInTheAnswer) {
    start(ELTWISE_OPTIMIZED_PLUGIN_PATH);
    // bf16 1.5 = 0x3fc0, 2 = 0x4000, 3 = 0x4040.
    const std::vector<core::BFloat16> a{{0x3fc0}}, b{{0x4000}};
    const auto r = request("onnx.Mul-14", tensor<ElementType::bf16>({1}, a),
                           tensor<ElementType::bf16>({1}, b));
    const core::Tensor out = run_ok(r, ElementType::bf16);
    EXPECT_EQ(out.values<core::BFloat16>()[0].bits, 0x4040);
    EXPECT_NE(npy_header_of(r.out).find("'descr': '<u2'"), std::string::npos);
}

TEST_F(NativeBackendTest, F16OutputIsF2) {
    start(ELTWISE_OPTIMIZED_PLUGIN_PATH);
    // f16 1.5 = 0x3e00, 2 = 0x4000, 3 = 0x4200.
    const auto r = request("onnx.Mul-14", f16({1}, {0x3e00}), f16({1}, {0x4000}));
    EXPECT_EQ(half_bits(run_ok(r, ElementType::f16)), (std::vector<std::uint16_t>{0x4200}));
    EXPECT_NE(npy_header_of(r.out).find("'descr': '<f2'"), std::string::npos);
}

TEST_F(NativeBackendTest, UnbroadcastableShapesAreRejected) {
    start(ELTWISE_OPTIMIZED_PLUGIN_PATH);
    const auto r = request("onnx.Mul-14", tensor<ElementType::f32>({2}, {1, 2}),
                           tensor<ElementType::f32>({3}, {1, 2, 3}));
    const Response response = exchange(r);
    EXPECT_EQ(response.id, r.id);
    EXPECT_EQ(response.status, Answer::rejected);
    EXPECT_FALSE(response.message.empty());
    EXPECT_FALSE(fs::exists(r.out));
}

TEST_F(NativeBackendTest, MixedTypesAreRejected) {
    start(ELTWISE_OPTIMIZED_PLUGIN_PATH);
    const Response response = exchange(request("onnx.Mul-14", tensor<ElementType::f32>({1}, {1}),
                                               tensor<ElementType::i32>({1}, {1})));
    EXPECT_EQ(response.status, Answer::rejected);
}

TEST_F(NativeBackendTest, InputFileThatDisagreesWithTheRequestIsAnError) {
    start(ELTWISE_OPTIMIZED_PLUGIN_PATH);
    Request shape = request("onnx.Mul-14", tensor<ElementType::f32>({2}, {1, 2}),
                            tensor<ElementType::f32>({2}, {1, 2}));
    shape.a.shape = {3};
    const Response wrong_shape = exchange(shape);
    EXPECT_EQ(wrong_shape.status, Answer::error);
    EXPECT_NE(wrong_shape.message.find("(2)"), std::string::npos) << wrong_shape.message;

    Request dtype = request("onnx.Mul-14", tensor<ElementType::f32>({2}, {1, 2}),
                            tensor<ElementType::f32>({2}, {1, 2}));
    dtype.a.dtype = dtype.b.dtype = ElementType::i32;
    const Response wrong_dtype = exchange(dtype);
    EXPECT_EQ(wrong_dtype.status, Answer::error);
    EXPECT_NE(wrong_dtype.message.find("<f4"), std::string::npos) << wrong_dtype.message;

    Request missing = request("onnx.Mul-14", tensor<ElementType::f32>({1}, {1}),
                              tensor<ElementType::f32>({1}, {1}));
    missing.b.path += ".missing";
    const Response no_file = exchange(missing);
    EXPECT_EQ(no_file.id, missing.id);
    EXPECT_EQ(no_file.status, Answer::error);
}

// PROTOCOL.md section 9, item 18. The host maps any regular file as the input region; the
// validator's own is a sealed memfd (backends/tests/process_backend_test.cpp).
TEST_F(NativeBackendTest, InputsAreReadAtTheirOffsetsInTheInputRegion) {
    EXPECT_TRUE(parse_hello(start(ELTWISE_OPTIMIZED_PLUGIN_PATH)).input_region);
    const core::Tensor a = tensor<ElementType::f32>({2}, {1.5f, -2}),
                       b = tensor<ElementType::f32>({2}, {4, 0.25f});
    // Junk, A's .npy at `at_a`, B's at 512, more junk.
    const auto region_with = [&](std::size_t at_a) {
        std::string bytes(1024, '\x7f');
        const std::string pa = io::npy_preamble(a.type, a.shape),
                          pb = io::npy_preamble(b.type, b.shape);
        bytes.replace(at_a, pa.size(), pa);
        std::memcpy(bytes.data() + at_a + pa.size(), a.bytes.data(), a.bytes.size());
        bytes.replace(512, pb.size(), pb);
        std::memcpy(bytes.data() + 512 + pb.size(), b.bytes.data(), b.bytes.size());
        const std::string path = (dir_ / ("inputs-" + std::to_string(at_a))).string();
        std::ofstream(path, std::ios::binary) << bytes;
        return path;
    };
    Request r = request("onnx.Mul-14", a, b);
    r.a.path = r.b.path = region_with(128);
    r.a.offset = 128;
    r.b.offset = 512;
    EXPECT_EQ(values_of<ElementType::f32>(run_ok(r, ElementType::f32)),
              (std::vector<float>{6, -0.5f}));

    r.a.offset = 2048;  // past the region
    Response past = exchange(r);
    EXPECT_EQ(past.status, Answer::error);
    EXPECT_NE(past.message.find("lies past the region's 1024 bytes"), std::string::npos)
        << past.message;

    r.a.path = r.b.path = region_with(130);  // A's data at byte 258: not 4-byte aligned
    r.a.offset = 130;
    Response misaligned = exchange(r);
    EXPECT_EQ(misaligned.status, Answer::error);
    EXPECT_NE(misaligned.message.find("not aligned to its 4-byte elements"), std::string::npos)
        << misaligned.message;
}

TEST_F(NativeBackendTest, TruncatedInputFileIsAnError) {
    start(ELTWISE_OPTIMIZED_PLUGIN_PATH);
    const Request r = request("onnx.Mul-14", tensor<ElementType::f32>({4}, {1, 2, 3, 4}),
                              tensor<ElementType::f32>({4}, {1, 2, 3, 4}));
    fs::resize_file(r.a.path, fs::file_size(r.a.path) - 4);
    const Response response = exchange(r);
    EXPECT_EQ(response.status, Answer::error);
    EXPECT_NE(response.message.find("data is shorter than the header says"), std::string::npos)
        << response.message;
}

TEST_F(NativeBackendTest, UnknownOpIsAnError) {
    start(ELTWISE_OPTIMIZED_PLUGIN_PATH);
    const auto r = request("onnx.Mul-99", tensor<ElementType::f32>({1}, {1}),
                           tensor<ElementType::f32>({1}, {1}));
    const Response response = exchange(r);
    EXPECT_EQ(response.id, r.id);
    EXPECT_EQ(response.status, Answer::error);
    EXPECT_NE(response.message.find("onnx.Mul-99"), std::string::npos);
}

TEST_F(NativeBackendTest, MalformedLinesAreAnsweredAndServingGoesOn) {
    start(ELTWISE_OPTIMIZED_PLUGIN_PATH);
    ASSERT_TRUE(host_->send("this is not json"));
    const Response garbage = parse_response(host_->read_line(kAnswerTimeout).value());
    EXPECT_EQ(garbage.id, -1);
    EXPECT_EQ(garbage.status, Answer::error);
    ASSERT_TRUE(host_->send(R"({"id": 41, "op": "onnx.Mul-14"})"));  // no inputs
    const Response incomplete = parse_response(host_->read_line(kAnswerTimeout).value());
    EXPECT_EQ(incomplete.id, 41);
    EXPECT_EQ(incomplete.status, Answer::error);
    const core::Tensor out = run_ok(request("onnx.Mul-14", tensor<ElementType::i64>({1}, {-3}),
                                            tensor<ElementType::i64>({1}, {5})),
                                    ElementType::i64);
    EXPECT_EQ(values_of<ElementType::i64>(out), (std::vector<std::int64_t>{-15}));
}

TEST_F(NativeBackendTest, ExitsWithZeroWhenStdinCloses) {
    start(ELTWISE_OPTIMIZED_PLUGIN_PATH);
    host_->close_stdin();
    const std::optional<int> status = host_->wait(kAnswerTimeout);
    ASSERT_TRUE(status);
    EXPECT_TRUE(WIFEXITED(*status));
    EXPECT_EQ(WEXITSTATUS(*status), 0);
    EXPECT_FALSE(host_->read_line(1));  // nothing after the hello
}

// ---- usage errors: exit status 2 and a message naming the problem ----

TEST_F(NativeBackendTest, NoPluginIsAUsageError) {
    EXPECT_NE(start_fails({}).find("usage"), std::string::npos);
}

TEST_F(NativeBackendTest, UnloadablePluginIsAUsageError) {
    const std::string path = (dir_ / "no-such-plugin.so").string();
    EXPECT_NE(start_fails({path}).find("no-such-plugin.so"), std::string::npos);
}

TEST_F(NativeBackendTest, LibraryWithoutTheExportsIsAUsageError) {
    EXPECT_NE(start_fails({"libm.so.6"}).find("does not export eltwise_backend_init"),
              std::string::npos);
}

TEST_F(NativeBackendTest, FailingInitIsAUsageErrorWithThePluginsMessage) {
    EXPECT_NE(start_fails({ELTWISE_FAULT_PLUGIN_PATH, "--fault", "init-fail"})
                  .find("init-fail: the plugin refuses to start"),
              std::string::npos);
    EXPECT_NE(start_fails({ELTWISE_OPTIMIZED_PLUGIN_PATH, "--threads", "zero"}).find("--threads"),
              std::string::npos);
}

TEST_F(NativeBackendTest, AbiVersionMismatchIsAUsageError) {
    EXPECT_NE(start_fails({ELTWISE_FAULT_PLUGIN_PATH, "--fault", "bad-abi"}).find("version 999"),
              std::string::npos);
}

// ---- the trivial plugin ----

TEST_F(NativeBackendTest, TrivialPluginClaimsMul14F32AndWritesZeros) {
    const Hello hello = parse_hello(start(ELTWISE_TRIVIAL_PLUGIN_PATH));
    EXPECT_EQ(hello.ops.size(), 1u);
    EXPECT_EQ(hello.ops.at("onnx.Mul-14"), std::vector<ElementType>{ElementType::f32});
    const core::Tensor out = run_ok(request("onnx.Mul-14", tensor<ElementType::f32>({2, 1}, {1, 2}),
                                            tensor<ElementType::f32>({2}, {3, 4})),
                                    ElementType::f32);
    EXPECT_EQ(out.shape, (core::Shape{2, 2}));
    EXPECT_EQ(values_of<ElementType::f32>(out), (std::vector<float>{0, 0, 0, 0}));
    EXPECT_EQ(exchange(request("onnx.Mul-14", tensor<ElementType::i32>({1}, {1}),
                               tensor<ElementType::i32>({1}, {1})))
                  .status,
              Answer::unsupported);
    EXPECT_EQ(exchange(request("onnx.Mul-14", tensor<ElementType::f32>({2}, {1, 2}),
                               tensor<ElementType::f32>({3}, {1, 2, 3})))
                  .status,
              Answer::rejected);
}

// ---- faults ----

class FaultTest : public NativeBackendTest {
  protected:
    // The host with `--fault name` on i32 Mul-14 calls; checks that an f32 call still works.
    void start_fault(const std::string& name) {
        start(ELTWISE_FAULT_PLUGIN_PATH,
              {"--fault", name, "--on-op", "onnx.Mul-14", "--on-dtype", "i32"});
        const core::Tensor out = run_ok(request("onnx.Mul-14", tensor<ElementType::f32>({1}, {3}),
                                                tensor<ElementType::f32>({1}, {4})),
                                        ElementType::f32);
        EXPECT_EQ(values_of<ElementType::f32>(out), std::vector<float>{12});
    }
    Request faulty_request() {
        return request("onnx.Mul-14", tensor<ElementType::i32>({1}, {6}),
                       tensor<ElementType::i32>({1}, {7}));
    }
    // Sends the faulty request and returns how the host ended, expecting no answer.
    int crash() {
        EXPECT_TRUE(host_->send(to_line(faulty_request())));
        EXPECT_FALSE(host_->read_line(kAnswerTimeout));
        return host_->wait(kAnswerTimeout).value_or(-1);
    }
};

TEST_F(FaultTest, SegfaultKillsTheHostWithSigsegv) {
    start_fault("crash-segv");
    const int status = crash();
    ASSERT_TRUE(WIFSIGNALED(status)) << status;
    EXPECT_EQ(WTERMSIG(status), SIGSEGV);
}

TEST_F(FaultTest, DivisionByZeroKillsTheHostWithSigfpe) {
    start_fault("crash-fpe");
    const int status = crash();
    ASSERT_TRUE(WIFSIGNALED(status)) << status;
    EXPECT_EQ(WTERMSIG(status), SIGFPE);
}

TEST_F(FaultTest, AbortKillsTheHostWithSigabrt) {
    start_fault("crash-abrt");
    const int status = crash();
    ASSERT_TRUE(WIFSIGNALED(status)) << status;
    EXPECT_EQ(WTERMSIG(status), SIGABRT);
}

TEST_F(FaultTest, ExitMidCallEndsTheHostWithStatus3) {
    start_fault("exit");
    const int status = crash();
    ASSERT_TRUE(WIFEXITED(status)) << status;
    EXPECT_EQ(WEXITSTATUS(status), 3);
}

TEST_F(FaultTest, HangGivesNoAnswerAndKeepsRunning) {
    start_fault("hang");
    ASSERT_TRUE(host_->send(to_line(faulty_request())));
    EXPECT_FALSE(host_->read_line(0.3));
    EXPECT_FALSE(host_->wait(0.05));  // still running; the fixture kills it
}

TEST_F(FaultTest, StdoutGarbagePrecedesTheAnswer) {
    start_fault("stdout-garbage");
    const Request r = faulty_request();
    ASSERT_TRUE(host_->send(to_line(r)));
    const std::string garbage = host_->read_line(kAnswerTimeout).value();
    EXPECT_THROW(parse_response(garbage), ProtocolError) << garbage;
    const Response answer = parse_response(host_->read_line(kAnswerTimeout).value());
    EXPECT_EQ(answer.id, r.id);
    EXPECT_EQ(answer.status, Answer::ok);
}

TEST_F(FaultTest, WrongShapeHasAnExtraDimension) {
    start_fault("wrong-shape");
    const core::Tensor out = run_ok(faulty_request(), ElementType::i32);
    EXPECT_EQ(out.shape, (core::Shape{1, 1}));
    EXPECT_EQ(values_of<ElementType::i32>(out), std::vector<std::int32_t>{42});
}

TEST_F(FaultTest, WrongDtypeMislabelsTheBits) {
    start_fault("wrong-dtype");
    const Request r = faulty_request();
    const core::Tensor out = run_ok(r, ElementType::u32);
    EXPECT_EQ(values_of<ElementType::u32>(out), std::vector<std::uint32_t>{42});
    EXPECT_NE(npy_header_of(r.out).find("'descr': '<u4'"), std::string::npos);
}

TEST_F(FaultTest, OkWithoutAnOutputIsAnError) {
    start_fault("no-output");
    const Response response = exchange(faulty_request());
    EXPECT_EQ(response.status, Answer::error);
    EXPECT_NE(response.message.find("without allocating"), std::string::npos);
}

// ---- planted bugs: each gives the planted wrong value where the optimized plugin is right ----

class PlantedBugTest : public NativeBackendTest {
  protected:
    // The output of `r` from the optimized plugin, then from the planted bug plugin.
    std::pair<core::Tensor, core::Tensor> both(const std::string& bug, const std::string& op,
                                               const core::Tensor& a, const core::Tensor& b) {
        start(ELTWISE_OPTIMIZED_PLUGIN_PATH);
        const core::Tensor good = run_ok(request(op, a, b), a.type);
        start(ELTWISE_PLANTED_BUG_PLUGIN_PATH, {"--bug", bug});
        return {good, run_ok(request(op, a, b), a.type)};
    }
};

TEST_F(PlantedBugTest, SaturateU8ClampsProducts) {
    // 200 * 2 = 400: wraps to 144, the bug clamps to 255; 100 * 2 = 200 fits either way.
    const auto [good, bad] =
        both("saturate-u8", "openvino.Multiply-1", tensor<ElementType::u8>({2}, {200, 100}),
             tensor<ElementType::u8>({}, {2}));
    EXPECT_EQ(values_of<ElementType::u8>(good), (std::vector<std::uint8_t>{144, 200}));
    EXPECT_EQ(values_of<ElementType::u8>(bad), (std::vector<std::uint8_t>{255, 200}));
}

TEST_F(PlantedBugTest, FtzFlushesSubnormalInputsAndOutputs) {
    // 1e-39f is subnormal (f32 normals start at 2^-126 ~ 1.18e-38): 1e-39f * 1 = 1e-39f, the
    // bug reads the input as 0. 2^-70 * 2^-70 = 2^-140 is a subnormal result, the bug gives 0.
    // -1e-39f * 1 keeps its sign: -0 (0x80000000). 2 * 3 = 6 is untouched.
    const float tiny = 1e-39f, half_tiny = 0x1p-70f;
    const auto [good, bad] =
        both("ftz", "onnx.Mul-14", tensor<ElementType::f32>({4}, {tiny, half_tiny, -tiny, 2}),
             tensor<ElementType::f32>({4}, {1, half_tiny, 1, 3}));
    EXPECT_EQ(values_of<ElementType::f32>(good), (std::vector<float>{tiny, 0x1p-140f, -tiny, 6}));
    EXPECT_EQ(f32_bits(bad), (std::vector<std::uint32_t>{0, 0, 0x80000000u, 0x40c00000u}));
}

TEST_F(PlantedBugTest, F16TowardZeroTruncatesInsteadOfRoundingToNearest) {
    // 0x3c17 = 1 + 23/1024; squared = 1 + 46/1024 + 529/2^20 = 1 + (46 + 0.5166)/1024: nearest
    // is 1 + 47/1024 (0x3c2f), toward zero 1 + 46/1024 (0x3c2e); the same negated (0xbc2f /
    // 0xbc2e). 300 * 300 = 90000 > 65504: nearest is inf (0x7c00), toward zero 65504 (0x7bff).
    const auto [good, bad] =
        both("f16-toward-zero", "onnx.Mul-14", f16({3}, {0x3c17, 0xbc17, 0x5cb0}),
             f16({3}, {0x3c17, 0x3c17, 0x5cb0}));
    EXPECT_EQ(half_bits(good), (std::vector<std::uint16_t>{0x3c2f, 0xbc2f, 0x7c00}));
    EXPECT_EQ(half_bits(bad), (std::vector<std::uint16_t>{0x3c2e, 0xbc2e, 0x7bff}));
}

TEST_F(PlantedBugTest, F16TowardZeroTruncatesQuotients) {
    // 3 / 5 = 0.6 = 1.2 * 2^-1; 1.2 = 1.0011001100|1100... in binary: the rest (0.8 ulp) rounds
    // the 10-bit fraction up to 0x0cd (0x38cd); toward zero keeps 0x0cc (0x38cc).
    const auto [good, bad] =
        both("f16-toward-zero", "onnx.Div-14", f16({1}, {0x4200}), f16({1}, {0x4500}));
    EXPECT_EQ(half_bits(good), std::vector<std::uint16_t>{0x38cd});
    EXPECT_EQ(half_bits(bad), std::vector<std::uint16_t>{0x38cc});
}

TEST_F(PlantedBugTest, LostNegativeZeroTurnsMinusZeroIntoPlusZero) {
    // -0 * 1 = -0 (0x80000000); the bug answers +0. -2 * 3 = -6 (0xc0c00000) keeps its sign.
    const auto [good, bad] =
        both("lost-negative-zero", "onnx.Mul-14", tensor<ElementType::f32>({2}, {-0.0f, -2}),
             tensor<ElementType::f32>({2}, {1, 3}));
    EXPECT_EQ(f32_bits(good), (std::vector<std::uint32_t>{0x80000000u, 0xc0c00000u}));
    EXPECT_EQ(f32_bits(bad), (std::vector<std::uint32_t>{0x00000000u, 0xc0c00000u}));
}

TEST_F(PlantedBugTest, UnknownBugIsAUsageError) {
    EXPECT_NE(start_fails({ELTWISE_PLANTED_BUG_PLUGIN_PATH, "--bug", "nope"}).find("usage"),
              std::string::npos);
}

}  // namespace
}  // namespace backend_host
