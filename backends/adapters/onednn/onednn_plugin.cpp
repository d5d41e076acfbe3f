// libeltwise_onednn_plugin.so: oneDNN's binary primitive (algorithm::binary_mul, binary_div)
// behind the plugin C ABI, on the cpu engine. The inputs and the host's output buffer are
// handed to oneDNN as they are (plain row-major memory), without copies.
//
// What it claims, how each op version maps to oneDNN, and why: README.md next to this file.
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "backends/adapters/onednn/lowering.hpp"
#include "core/error.hpp"
#include "core/op_config.hpp"
#include "plugins/abi_adapter.hpp"
#include "plugins/eltwise_backend.h"

namespace {

namespace ad = backends::adapters::onednn;
using dnnl::memory;

// oneDNN rejects the inputs (invalid arguments): the answer is `rejected`, as for core::Error.
struct Rejected : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A valid call that oneDNN cannot run (type, rank, rounding): the answer is `unsupported`.
struct Unsupported : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct DataType {
    std::string_view name;   // the suite's
    memory::data_type type;  // oneDNN's
};
// oneDNN's data types. Which of them its cpu binary primitive runs depends on the CPU (2.6.3:
// f16 needs AVX512-FP16, bf16 AVX512): the hello claims those it can create a primitive for.
constexpr DataType kDataTypes[] = {
    {"f32", memory::data_type::f32},   {"f16", memory::data_type::f16},
    {"bf16", memory::data_type::bf16}, {"i8", memory::data_type::s8},
    {"u8", memory::data_type::u8},     {"i32", memory::data_type::s32},
#if DNNL_VERSION_MAJOR >= 3
    {"f64", memory::data_type::f64},
#endif
};

std::optional<memory::data_type> onednn_type(std::string_view name) {
    for (const DataType& t : kDataTypes)
        if (t.name == name) return t.type;
    return std::nullopt;
}

// ---- the hello ----

// oneDNN 3 folded the operation descriptor into the primitive descriptor, which now checks the
// dims when it is made; oneDNN 2 checks them in binary::desc.
#if DNNL_VERSION_MAJOR >= 3
using BinaryDesc = dnnl::binary::primitive_desc;
#else
using BinaryDesc = dnnl::binary::desc;
#endif

// Runs before the engine is made (the first member of Engine).
bool configure_runtime() {
    // oneDNN 3 prints its error notes to stdout, the protocol channel: silence them.
    dnnl::set_verbose(0);
#ifdef ELTWISE_ONEDNN_OPENCL_CPU_ICD
    setenv("OCL_ICD_FILENAMES", ELTWISE_ONEDNN_OPENCL_CPU_ICD, 0);
#endif
    return true;
}

struct Engine {
    bool configured = configure_runtime();
    dnnl::engine engine{dnnl::engine::kind::cpu, 0};
    dnnl::stream stream{engine};
};

Engine& cpu() {
    static Engine e;
    return e;
}

BinaryDesc binary_desc(dnnl::algorithm algorithm, const memory::desc& src0,
                       const memory::desc& src1, const memory::desc& dst) {
#if DNNL_VERSION_MAJOR >= 3
    return {cpu().engine, algorithm, src0, src1, dst};
#else
    return {algorithm, src0, src1, dst};
#endif
}

dnnl::binary::primitive_desc primitive_desc(const BinaryDesc& desc) {
#if DNNL_VERSION_MAJOR >= 3
    return desc;
#else
    return {desc, cpu().engine};
#endif
}

std::string version_text() {
    const dnnl_version_t* v = dnnl_version();
    std::string text =
        std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
    if (v->hash && std::string_view(v->hash) != "N/A") text += " (" + std::string(v->hash) + ")";
    return text;
}

dnnl::algorithm algorithm_of(const core::OpVersion& op) {
    return op.arithmetic == core::Arithmetic::multiply ? dnnl::algorithm::binary_mul
                                                       : dnnl::algorithm::binary_div;
}

// Whether oneDNN has a cpu binary primitive for this algorithm and type on this CPU.
bool runs(dnnl::algorithm algorithm, memory::data_type type) {
    const memory::desc md({1}, type, memory::format_tag::a);
    try {
        primitive_desc(binary_desc(algorithm, md, md, md));
        return true;
    } catch (const dnnl::error&) {
        return false;
    }
}

// Claims every type of a version's schema that oneDNN runs here.
const eltwise_backend_info* make_info() {
    return plugins::claim_op_table("oneDNN", version_text(),
                                   [](const core::OpVersion& op, core::ElementType t) {
                                       const auto type = onednn_type(core::name(t));
                                       return type && runs(algorithm_of(op), *type);
                                   });
}

// ---- one call ----

core::Shape dims_of(const eltwise_tensor& t) {
    return core::Shape(t.shape, t.shape + t.rank);
}

// Row-major strides. An empty tensor gets strides of 1: its other dims may multiply past 2^63
// (the host checked only that the element count is 0), and oneDNN never reads it.
memory::desc plain(const core::Shape& dims, memory::data_type type) {
    memory::dims strides(dims.size(), 1);
    if (std::find(dims.begin(), dims.end(), 0) != dims.end()) return {dims, type, strides};
    memory::dim step = 1;  // fits: the host checked the byte size of every non-empty tensor
    for (std::size_t d = dims.size(); d-- > 0;) {
        strides[d] = step;
        step *= dims[d];
    }
    return {dims, type, strides};
}

// oneDNN's verdict on a descriptor: invalid arguments are its rejection of the inputs.
[[noreturn]] void rethrow_library(const dnnl::error& e, std::string_view step) {
    const std::string text = "oneDNN " + std::string(step) + ": " + e.what() + " (status " +
                             std::to_string(static_cast<int>(e.status)) + ")";
    if (e.status == dnnl_invalid_arguments) throw Rejected(text);
    if (e.status == dnnl_unimplemented) throw Unsupported(text);
    throw;
}

bool is_signed_integer(std::string_view dtype) {
    return dtype == "i8" || dtype == "i32";
}

// What a converter makes of the call before oneDNN sees it.
struct Converted {
    const core::OpVersion* op;
    core::OpConfig config;
    ad::Lowered shapes;
};

core::ElementType element_type(const char* dtype) {
    if (dtype)
        if (const auto t = core::element_type_named(dtype)) return *t;
    throw std::invalid_argument(std::string("unknown element type '") + (dtype ? dtype : "(null)") +
                                "'");
}

// The suite's own validation (core::Error: `rejected`), in the specs' order: types,
// attributes, shapes. The inputs stay where they are: oneDNN reads them without copies.
Converted convert(const eltwise_call& call) {
    const core::OpVersion* op = core::find_op_version(call.op);
    if (!op) throw Unsupported(std::string("no oneDNN mapping for ") + call.op);
    core::check_element_types(*op, element_type(call.a.dtype), element_type(call.b.dtype));
    core::AttributeMap attributes;
    for (std::size_t i = 0; i < call.attribute_count; ++i)
        attributes[call.attributes[i].name] = call.attributes[i].value;
    const core::OpConfig config = core::resolve_attributes(*op, attributes);
    ad::Lowered shapes = ad::lower(config.broadcast, dims_of(call.a), dims_of(call.b));
    if (shapes.dst.size() > DNNL_MAX_NDIMS)
        throw Unsupported("rank " + std::to_string(shapes.dst.size()) +
                          " exceeds oneDNN's DNNL_MAX_NDIMS (" + std::to_string(DNNL_MAX_NDIMS) +
                          ")");
    return {op, config, std::move(shapes)};
}

struct Prepared {
    ad::Lowered shapes;
    memory::desc src0, src1, dst;
    dnnl::binary::primitive_desc primitive;
};

// oneDNN's binary descriptor: oneDNN checks the dims (and, from oneDNN 3 on, the type) here.
BinaryDesc describe(const Converted& c, Prepared& p, memory::data_type type) {
    p.src0 = plain(c.shapes.src0, type);
    p.src1 = plain(c.shapes.src1, type);
    p.dst = plain(c.shapes.dst, type);
    try {
        return binary_desc(algorithm_of(*c.op), p.src0, p.src1, p.dst);
    } catch (const dnnl::error& e) {
        rethrow_library(e, "binary descriptor");
    }
}

Prepared prepare(const eltwise_call& call) {
    const Converted c = convert(call);
    Prepared p{c.shapes, {}, {}, {}, {}};
    // For a type oneDNN lacks, f32 stands in, so that oneDNN still judges the shapes of an
    // invalid call before the answer `unsupported`.
    const auto type = onednn_type(call.a.dtype);
    const BinaryDesc desc = describe(c, p, type.value_or(memory::data_type::f32));
    if (!type) throw Unsupported(std::string("oneDNN has no data type ") + call.a.dtype);
    if (core::floors(c.config.rounding) && is_signed_integer(call.a.dtype))
        throw Unsupported(
            "oneDNN has no floor division (m_pythondiv=true); binary_div converts the f32 "
            "quotient to the integer type by rounding to nearest");
    try {
        p.primitive = primitive_desc(desc);
    } catch (const dnnl::error& e) {
        rethrow_library(e, "binary primitive descriptor");
    }
    return p;
}

void* input_handle(const eltwise_tensor& t) {
    // oneDNN's memory takes a non-const handle; the primitive only reads its sources.
    return t.byte_size == 0 ? nullptr : const_cast<void*>(t.data);
}

int execute(const eltwise_call& call, const eltwise_output& out, char* message,
            std::size_t capacity) {
    const Prepared p = prepare(call);
    const core::Shape& shape = p.shapes.output;
    void* buffer =
        out.allocate(out.ctx, call.a.dtype, static_cast<int>(shape.size()), shape.data());
    if (!buffer) {
        plugins::write_message(message, capacity, "the host could not allocate the output");
        return ELTWISE_ERROR;
    }
    Engine& e = cpu();
    const memory src0(p.src0, e.engine, input_handle(call.a));
    const memory src1(p.src1, e.engine, input_handle(call.b));
    const memory dst(p.dst, e.engine, p.dst.get_size() == 0 ? nullptr : buffer);
    dnnl::binary(p.primitive)
        .execute(e.stream, {{DNNL_ARG_SRC_0, src0}, {DNNL_ARG_SRC_1, src1}, {DNNL_ARG_DST, dst}});
    e.stream.wait();
    return ELTWISE_OK;
}

}  // namespace

const eltwise_backend_info* eltwise_backend_init(int argc, const char* const* /*argv*/,
                                                 char* message, size_t message_capacity) {
    if (argc > 1) {
        plugins::write_message(message, message_capacity, "takes no arguments");
        return nullptr;
    }
    try {
        cpu();  // fails here, not in the first call, when there is no cpu engine
        return make_info();
    } catch (const std::exception& e) {
        plugins::write_message(message, message_capacity, e.what());
    }
    return nullptr;
}

int eltwise_backend_run(const eltwise_call* call, const eltwise_output* out, char* message,
                        size_t message_capacity) {
    const auto fail = [&](int status, const char* text) {
        plugins::write_message(message, message_capacity, text);
        return status;
    };
    try {
        return execute(*call, *out, message, message_capacity);
    } catch (const core::Error& e) {
        return fail(ELTWISE_REJECTED, e.what());
    } catch (const Rejected& e) {
        return fail(ELTWISE_REJECTED, e.what());
    } catch (const Unsupported& e) {
        return fail(ELTWISE_UNSUPPORTED, e.what());
    } catch (const std::exception& e) {
        return fail(ELTWISE_ERROR, e.what());
    } catch (...) {
        return fail(ELTWISE_ERROR, "unknown exception");
    }
}
