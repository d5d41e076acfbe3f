// The oneDNN peer: one dnnl::binary primitive (binary_mul / binary_div) per row, created before
// timing, on the CPU engine with oneDNN's own OpenMP threading. oneDNN broadcasts src1 only.
#include "bench/peer.hpp"

#ifdef ELTWISE_BENCH_HAVE_ONEDNN

#include <memory>
#include <oneapi/dnnl/dnnl.hpp>
#include <optional>

namespace bench {
namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

std::optional<dt> data_type(core::ElementType t) {
    switch (t) {
        case core::ElementType::f32:
            return dt::f32;
        case core::ElementType::f16:
            return dt::f16;
        case core::ElementType::bf16:
            return dt::bf16;
        case core::ElementType::i32:
            return dt::s32;
        case core::ElementType::i8:
            return dt::s8;
        case core::ElementType::u8:
            return dt::u8;
        default:
            return std::nullopt;
    }
}

struct Primitive {
    dnnl::engine engine{dnnl::engine::kind::cpu, 0};
    dnnl::stream stream{engine};
    dnnl::binary binary;
    dnnl::memory src0, src1, dst;
};

}  // namespace

PreparedPeer prepare_onednn(const PeerCall& call) {
    PreparedPeer p;
    const auto type = data_type(call.row.type);
    if (!type) {
        p.reason = "oneDNN has no " + std::string(core::name(call.row.type)) + " data type";
        return p;
    }
    const LayoutDims& d = call.dims;
    dnnl::memory::dims d0, d1;
    tag format = tag::a;
    switch (call.row.layout) {
        case Layout::same:
            d0 = d1 = {d.inner};
            break;
        case Layout::scalar:
            d0 = {d.inner};
            d1 = {1};
            break;
        case Layout::row:
            d0 = {d.outer, d.inner};
            d1 = {1, d.inner};
            format = tag::ab;
            break;
        case Layout::col:
            d0 = {d.batch, d.outer, d.inner};
            d1 = {1, d.outer, 1};
            format = tag::abc;
            break;
        case Layout::outer:
            p.reason = "both inputs broadcast; oneDNN rejects broadcasting of its first input";
            return p;
    }
    const auto alg = call.row.arithmetic == core::Arithmetic::multiply
                         ? dnnl::algorithm::binary_mul
                         : dnnl::algorithm::binary_div;
    try {
        auto prim = std::make_shared<Primitive>();
        const dnnl::memory::desc md0(d0, *type, format), md1(d1, *type, format);
#if DNNL_VERSION_MAJOR >= 3
        const dnnl::binary::primitive_desc pd(prim->engine, alg, md0, md1, md0);
#else
        const dnnl::binary::primitive_desc pd(dnnl::binary::desc(alg, md0, md1, md0), prim->engine);
#endif
        prim->binary = dnnl::binary(pd);
        // oneDNN takes non-const handles; the primitive only reads src0 and src1.
        prim->src0 = dnnl::memory(md0, prim->engine, const_cast<std::byte*>(call.a.bytes.data()));
        prim->src1 = dnnl::memory(md1, prim->engine, const_cast<std::byte*>(call.b.bytes.data()));
        prim->dst = dnnl::memory(md0, prim->engine, call.out);
        p.note = std::string("impl=") + pd.impl_info_str();
        p.run = [prim] {
            prim->binary.execute(prim->stream, {{DNNL_ARG_SRC_0, prim->src0},
                                                {DNNL_ARG_SRC_1, prim->src1},
                                                {DNNL_ARG_DST, prim->dst}});
            prim->stream.wait();
        };
    } catch (const dnnl::error& e) {
        p.reason = e.status == dnnl_unimplemented
                       ? "oneDNN " + onednn_version() + " has no CPU implementation for this " +
                             std::string(core::name(call.row.type)) + " case (" + e.what() + ")"
                       : std::string("oneDNN: ") + e.what();
        return p;
    }
    if (core::is_integer(call.row.type) && call.row.arithmetic == core::Arithmetic::divide) {
        p.same_semantics = false;
        p.note +=
            "; integer binary_div rounds the f32 quotient to nearest (neither floor nor trunc)";
    }
    return p;
}

std::string onednn_version() {
    const dnnl_version_t* v = dnnl_version();
    return std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
           std::to_string(v->patch);
}

}  // namespace bench

#else

namespace bench {

PreparedPeer prepare_onednn(const PeerCall&) {
    return {
        {}, "built without oneDNN (run bench/run_benchmark.sh to install libdnnl-dev)", {}, true};
}

std::string onednn_version() {
    return {};
}

}  // namespace bench

#endif
