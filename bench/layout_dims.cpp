#include <stdexcept>

#include "bench/peer.hpp"

namespace bench {

LayoutDims layout_dims(Layout layout, const core::Shape& a, const core::Shape& b) {
    const std::int64_t na = core::element_count(a);
    const std::int64_t nb = core::element_count(b);
    LayoutDims d;
    switch (layout) {
        case Layout::same:
        case Layout::scalar:
            d.inner = na;
            if (layout == Layout::scalar ? nb != 1 : nb != na)
                throw std::runtime_error("layout same/scalar: B does not fit A");
            return d;
        case Layout::row:
            if (a.size() != 2 || nb != a[1])
                throw std::runtime_error("layout row: need A (o,i), B (i)");
            d.outer = a[0];
            d.inner = a[1];
            return d;
        case Layout::col:
            if (a.size() < 2 || nb == 0 || a.back() == 0 || na % (nb * a.back()) != 0)
                throw std::runtime_error("layout col: need A (..., o, i), B with o elements");
            d.outer = nb;
            d.inner = a.back();
            d.batch = na / (nb * a.back());
            return d;
        case Layout::outer:
            if (a.size() != 4 || b.size() != 3 || a[1] != 1 || a[3] != 1 || b[1] != 1)
                throw std::runtime_error("layout outer: need A (i,1,k,1), B (j,1,l)");
            d.i = a[0];
            d.k = a[2];
            d.j = b[0];
            d.l = b[2];
            return d;
    }
    throw std::logic_error("layout_dims: unknown layout");
}

}  // namespace bench
