#include "backends/adapters/onednn/lowering.hpp"

#include <algorithm>
#include <cstddef>

#include "backends/adapters/converter_lowering.hpp"

namespace backends::adapters::onednn {
namespace {

core::Shape with_rank(const core::Shape& d, std::size_t rank) {  // prepends 1s
    core::Shape out(rank - d.size(), 1);
    out.insert(out.end(), d.begin(), d.end());
    return out;
}

}  // namespace

Lowered lower(const core::BroadcastSpec& spec, const core::Shape& a, const core::Shape& b) {
    const LoweredShapes shapes = lower_shapes(a, b, spec);
    const std::size_t rank = std::max<std::size_t>({shapes.a.size(), shapes.b.size(), 1});
    Lowered out{with_rank(shapes.a, rank), with_rank(shapes.b, rank), {}, {}};
    // oneDNN broadcasts src0 too when dst has the full shape. Where the dims differ and
    // neither is 1, dst takes A's: a shape oneDNN itself refuses.
    for (std::size_t d = 0; d < rank; ++d)
        out.dst.push_back(out.src0[d] == 1 ? out.src1[d] : out.src0[d]);
    // dst's last dims in the output's rank: without the dim that stood in for rank 0.
    out.output.assign(out.dst.end() - static_cast<std::ptrdiff_t>(shapes.output.size()),
                      out.dst.end());
    return out;
}

}  // namespace backends::adapters::onednn
