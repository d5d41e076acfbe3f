// The Eigen peer: Eigen::Map arrays, coefficient-wise * and / (cwiseProduct / cwiseQuotient),
// broadcasting through colwise() / rowwise() / replicate(). Eigen does not parallelize
// coefficient-wise expressions itself, so each expression runs on OpenMP-parallel slices.
#include "bench/peer.hpp"

#ifdef ELTWISE_BENCH_HAVE_EIGEN

#include <Eigen/Core>
#include <algorithm>
#include <type_traits>

namespace bench {
namespace {

template <class T>
using Vec = Eigen::Array<T, Eigen::Dynamic, 1>;
template <class T>
using Mat = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic>;  // column-major

constexpr std::int64_t kSlice = 1 << 16;  // elements per parallel slice of flat layouts
constexpr std::int64_t kRows = 64;        // rows per parallel slice of broadcast layouts

template <bool Divide, class X, class Y, class Out>
void assign(Out&& out, const X& x, const Y& y) {
    if constexpr (Divide)
        out = x / y;
    else
        out = x * y;
}

template <class T, bool Divide>
std::function<void()> kernel(const PeerCall& call) {
    const T* a = reinterpret_cast<const T*>(call.a.bytes.data());
    const T* b = reinterpret_cast<const T*>(call.b.bytes.data());
    T* c = reinterpret_cast<T*>(call.out);
    const LayoutDims d = call.dims;
    switch (call.row.layout) {
        case Layout::same:
            return [=] {
                const std::int64_t slices = (d.inner + kSlice - 1) / kSlice;
#pragma omp parallel for schedule(static)
                for (std::int64_t s = 0; s < slices; ++s) {
                    const std::int64_t lo = s * kSlice, n = std::min(kSlice, d.inner - lo);
                    Eigen::Map<const Vec<T>> x(a + lo, n), y(b + lo, n);
                    Eigen::Map<Vec<T>> z(c + lo, n);
                    assign<Divide>(z, x, y);
                }
            };
        case Layout::scalar:
            return [=] {
                const std::int64_t slices = (d.inner + kSlice - 1) / kSlice;
                const T y = b[0];
#pragma omp parallel for schedule(static)
                for (std::int64_t s = 0; s < slices; ++s) {
                    const std::int64_t lo = s * kSlice, n = std::min(kSlice, d.inner - lo);
                    Eigen::Map<const Vec<T>> x(a + lo, n);
                    Eigen::Map<Vec<T>> z(c + lo, n);
                    assign<Divide>(z, x, y);
                }
            };
        case Layout::row:  // A as inner x outer column-major: C = A.colwise() op B
            return [=] {
                Eigen::Map<const Vec<T>> y(b, d.inner);
                const std::int64_t slices = (d.outer + kRows - 1) / kRows;
#pragma omp parallel for schedule(static)
                for (std::int64_t s = 0; s < slices; ++s) {
                    const std::int64_t lo = s * kRows, n = std::min(kRows, d.outer - lo);
                    Eigen::Map<const Mat<T>> x(a + lo * d.inner, d.inner, n);
                    Eigen::Map<Mat<T>> z(c + lo * d.inner, d.inner, n);
                    if constexpr (Divide)
                        z = x.colwise() / y;
                    else
                        z = x.colwise() * y;
                }
            };
        case Layout::col:  // per batch, A as inner x outer: C = A.rowwise() op B^T
            return [=] {
                const std::int64_t per_batch = (d.outer + kRows - 1) / kRows;
#pragma omp parallel for schedule(static)
                for (std::int64_t s = 0; s < d.batch * per_batch; ++s) {
                    const std::int64_t n0 = s / per_batch, lo = (s % per_batch) * kRows;
                    const std::int64_t n = std::min(kRows, d.outer - lo);
                    const std::int64_t offset = (n0 * d.outer + lo) * d.inner;
                    Eigen::Map<const Mat<T>> x(a + offset, d.inner, n);
                    Eigen::Map<const Vec<T>> y(b + lo, n);
                    Eigen::Map<Mat<T>> z(c + offset, d.inner, n);
                    if constexpr (Divide)
                        z = x.rowwise() / y.transpose();
                    else
                        z = x.rowwise() * y.transpose();
                }
            };
        case Layout::outer:  // C[i,j] (l x k) = A[i,:]^T replicated over l, op B[j,:] over k
            return [=] {
#pragma omp parallel for schedule(static)
                for (std::int64_t s = 0; s < d.i * d.j; ++s) {
                    const std::int64_t i = s / d.j, j = s % d.j;
                    Eigen::Map<const Vec<T>> x(a + i * d.k, d.k);
                    Eigen::Map<const Vec<T>> y(b + j * d.l, d.l);
                    Eigen::Map<Mat<T>> z(c + s * d.k * d.l, d.l, d.k);
                    assign<Divide>(z, x.transpose().replicate(d.l, 1), y.replicate(1, d.k));
                }
            };
    }
    return {};
}

template <class T>
PreparedPeer prepare_typed(const PeerCall& call) {
    PreparedPeer p;
    if (call.row.arithmetic == core::Arithmetic::multiply) {
        p.run = kernel<T, false>(call);
        return p;
    }
    if (call.row.rounding == Rounding::floor) {
        p.reason = "Eigen has no floor division";
        return p;
    }
    p.run = kernel<T, true>(call);
    if (call.row.rounding == Rounding::trunc) p.note = "C++ integer / (truncates)";
    return p;
}

}  // namespace

PreparedPeer prepare_eigen(const PeerCall& call) {
    static_assert(sizeof(Eigen::half) == 2 && sizeof(Eigen::bfloat16) == 2);
    using core::ElementType;
    switch (call.row.type) {
        case ElementType::f32:
            return prepare_typed<float>(call);
        case ElementType::f64:
            return prepare_typed<double>(call);
        case ElementType::f16:
            return prepare_typed<Eigen::half>(call);
        case ElementType::bf16:
            return prepare_typed<Eigen::bfloat16>(call);
        case ElementType::i8:
            return prepare_typed<std::int8_t>(call);
        case ElementType::i16:
            return prepare_typed<std::int16_t>(call);
        case ElementType::i32:
            return prepare_typed<std::int32_t>(call);
        case ElementType::i64:
            return prepare_typed<std::int64_t>(call);
        case ElementType::u8:
            return prepare_typed<std::uint8_t>(call);
        case ElementType::u16:
            return prepare_typed<std::uint16_t>(call);
        case ElementType::u32:
            return prepare_typed<std::uint32_t>(call);
        case ElementType::u64:
            return prepare_typed<std::uint64_t>(call);
        default:
            return {{}, "not wired into the Eigen peer", {}, true};
    }
}

std::string eigen_version() {
    return std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
           std::to_string(EIGEN_MINOR_VERSION);
}

}  // namespace bench

#else

namespace bench {

PreparedPeer prepare_eigen(const PeerCall&) {
    return {
        {}, "built without Eigen3 (run bench/run_benchmark.sh to install libeigen3-dev)", {}, true};
}

std::string eigen_version() {
    return {};
}

}  // namespace bench

#endif
