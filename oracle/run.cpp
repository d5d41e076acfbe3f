#include "oracle/run.hpp"

#include <cstring>
#include <stdexcept>

#include "oracle/element_mapping.hpp"
#include "oracle/float_arithmetic.hpp"
#include "oracle/integer_arithmetic.hpp"

namespace oracle {
namespace {

// Element i's encoding, zero-extended: copied through the unsigned type of its width, so the
// host's byte order is respected.
template <class U>
std::uint64_t load(const core::Tensor& t, std::int64_t i) {
    U u;
    std::memcpy(&u, t.bytes.data() + static_cast<std::size_t>(i) * sizeof(U), sizeof(U));
    return u;
}

template <class U>
void store(core::Tensor& t, std::int64_t i, std::uint64_t bits) {
    const U u = static_cast<U>(bits);
    std::memcpy(t.bytes.data() + static_cast<std::size_t>(i) * sizeof(U), &u, sizeof(U));
}

std::uint64_t load_bits(const core::Tensor& t, std::int64_t i) {
    switch (core::byte_size(t.type)) {
        case 1:
            return load<std::uint8_t>(t, i);
        case 2:
            return load<std::uint16_t>(t, i);
        case 4:
            return load<std::uint32_t>(t, i);
        default:
            return load<std::uint64_t>(t, i);
    }
}

void store_bits(core::Tensor& t, std::int64_t i, std::uint64_t bits) {
    switch (core::byte_size(t.type)) {
        case 1:
            return store<std::uint8_t>(t, i, bits);
        case 2:
            return store<std::uint16_t>(t, i, bits);
        case 4:
            return store<std::uint32_t>(t, i, bits);
        default:
            return store<std::uint64_t>(t, i, bits);
    }
}

Element evaluate(const core::OpVersion& op, const core::OpConfig& config, core::ElementType t,
                 std::uint64_t a, std::uint64_t b) {
    const bool multiply = op.arithmetic == core::Arithmetic::multiply;
    if (core::is_floating(t)) {
        // m_pythondiv has no effect on floating-point types (docs/SEMANTICS.md section 2).
        return {multiply ? multiply_float(t, a, b) : divide_float(t, a, b), false};
    }
    const IntegerOutcome r =
        multiply ? multiply_integer(t, a, b) : divide_integer(t, a, b, config.rounding);
    return {r.undefined ? 0 : r.wrapped_bits, r.undefined};
}

// The mapping's indices are only valid if each buffer holds its shape's element count.
void check_buffers(const core::Tensor& a, const core::Tensor& b) {
    if (a.size() != core::element_count(a.shape) || b.size() != core::element_count(b.shape))
        throw std::logic_error("oracle::run: a tensor's buffer does not match its shape");
}

}  // namespace

core::OpOutput run(const core::OpVersion& op, const core::AttributeMap& attributes,
                   const core::Tensor& a, const core::Tensor& b) {
    core::check_element_types(op, a.type, b.type);
    const core::OpConfig config = core::resolve_attributes(op, attributes);
    const ElementMapping mapping = map_elements(a.shape, b.shape, config.broadcast);
    check_buffers(a, b);
    core::OpOutput out{core::Tensor::zeros(a.type, mapping.output), {}};
    for (std::size_t i = 0; i < mapping.a_index.size(); ++i) {
        const auto flat = static_cast<std::int64_t>(i);
        const Element e = evaluate(op, config, a.type, load_bits(a, mapping.a_index[i]),
                                   load_bits(b, mapping.b_index[i]));
        store_bits(out.value, flat, e.bits);
        if (e.undefined) out.undefined.push_back(flat);
    }
    return out;
}

std::vector<Element> run_at(const core::OpVersion& op, const core::AttributeMap& attributes,
                            const core::Tensor& a, const core::Tensor& b,
                            const std::vector<std::int64_t>& output_indices) {
    core::check_element_types(op, a.type, b.type);
    const core::OpConfig config = core::resolve_attributes(op, attributes);
    const ElementMapping mapping =
        map_elements_at(a.shape, b.shape, config.broadcast, output_indices);
    check_buffers(a, b);
    std::vector<Element> out;
    out.reserve(output_indices.size());
    for (std::size_t i = 0; i < mapping.a_index.size(); ++i)
        out.push_back(evaluate(op, config, a.type, load_bits(a, mapping.a_index[i]),
                               load_bits(b, mapping.b_index[i])));
    return out;
}

}  // namespace oracle
