#include "backends/shared_tensors.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <boost/interprocess/managed_external_buffer.hpp>
#include <cstring>
#include <memory>
#include <mutex>
#include <span>

#include "backends/shared_region.hpp"
#include "io/npy_file.hpp"

namespace backends {
namespace {

namespace bip = boost::interprocess;

// Room for an input's .npy preamble before its data: a shape of core::kMaxRank dims of 19
// digits each needs under 512 bytes. A multiple of kTensorAlignment, so the data stays aligned.
constexpr std::size_t kPreambleRoom = 1024;
static_assert(kPreambleRoom % core::kTensorAlignment == 0);
// Smaller tensors stay on the heap, which serves them faster; an input among them is copied in.
constexpr std::size_t kSharedFrom = std::size_t{64} << 10;

struct Memory {
    SharedRegion region{RegionWriter::validator_only};
    // Boost's allocator, within the region. It takes no lock of its own (its mutex family is
    // null), and the runner makes tensors on two threads: every call holds `lock`.
    std::optional<bip::managed_external_buffer> heap;
    std::mutex lock;
};

// Never destroyed: tensors in static storage release their blocks during exit.
Memory* g_memory = nullptr;

bool contains(const void* p) {
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    const auto base = reinterpret_cast<std::uintptr_t>(g_memory->region.data().data());
    return at >= base && at - base < g_memory->region.bytes();
}

// A block of the memory, aligned as a tensor's data; null when there is no room.
std::byte* heap_allocate(std::size_t bytes) {
    const std::scoped_lock hold(g_memory->lock);
    return static_cast<std::byte*>(
        g_memory->heap->allocate_aligned(bytes, core::kTensorAlignment, std::nothrow));
}

void* allocate(std::size_t bytes) {
    if (bytes < kSharedFrom || bytes > g_memory->region.bytes()) return nullptr;
    std::byte* block = heap_allocate(bytes + kPreambleRoom);
    return block ? block + kPreambleRoom : nullptr;
}

bool release(void* p) {
    if (!contains(p)) return false;
    const std::scoped_lock hold(g_memory->lock);
    g_memory->heap->deallocate(static_cast<std::byte*>(p) - kPreambleRoom);
    return true;
}

// As large as the machine's memory (no set of tensors can be larger), but not past the file
// size limit: growing a file past RLIMIT_FSIZE raises SIGXFSZ.
std::uint64_t memory_size() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return 0;
    std::uint64_t bytes = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
    rlimit limit{};
    if (::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        bytes = std::min<std::uint64_t>(bytes, limit.rlim_cur / 2);
    return bytes;
}

bool set_up() {
    const std::uint64_t bytes = memory_size();
    if (bytes < (std::uint64_t{1} << 30)) return false;
    auto memory = std::make_unique<Memory>();
    if (!memory->region.reserve(bytes)) return false;
    const std::span<std::byte> all = memory->region.writable();
    memory->heap.emplace(bip::create_only, all.data(), all.size());
    g_memory = memory.release();
    return core::install_tensor_storage({allocate, release});
}

// The offset of t's .npy, its preamble written before its data; none when t is not in the
// memory.
std::optional<std::uint64_t> place(const core::Tensor& t, const std::string& preamble) {
    if (t.bytes.empty() || !contains(t.bytes.data())) return std::nullopt;
    const std::span<std::byte> all = g_memory->region.writable();
    const auto data = static_cast<std::uint64_t>(t.bytes.data() - all.data());
    std::memcpy(all.data() + data - preamble.size(), preamble.data(), preamble.size());
    return data - preamble.size();
}

// The offset of a copy of t's .npy in a block of its own, kept in `copies`; none without room.
std::optional<std::uint64_t> copy(const core::Tensor& t, const std::string& preamble,
                                  std::vector<SharedBlock>& copies) {
    // The data 64-byte aligned, as in a tensor: the preamble's length is a multiple of 64.
    std::byte* block = heap_allocate(preamble.size() + t.bytes.size());
    if (!block) return std::nullopt;
    copies.emplace_back(block);
    std::memcpy(block, preamble.data(), preamble.size());
    if (!t.bytes.empty()) std::memcpy(block + preamble.size(), t.bytes.data(), t.bytes.size());
    return static_cast<std::uint64_t>(block - g_memory->region.writable().data());
}

}  // namespace

bool share_tensors() {
    static std::once_flag once;
    static bool shared = false;
    std::call_once(once, [] { shared = set_up(); });
    return shared;
}

void SharedBlockRelease::operator()(std::byte* block) const noexcept {
    const std::scoped_lock hold(g_memory->lock);
    g_memory->heap->deallocate(block);
}

std::optional<SharedInputs> place_inputs(const core::Tensor& a, const core::Tensor& b) {
    if (!g_memory) return std::nullopt;
    SharedInputs placed{g_memory->region.path(), 0, 0, {}};
    const auto placed_or_copied = [&](const core::Tensor& t) -> std::optional<std::uint64_t> {
        const std::string preamble = io::npy_preamble(t.type, t.shape);
        if (preamble.size() > kPreambleRoom) return std::nullopt;
        if (auto at = place(t, preamble)) return at;
        return copy(t, preamble, placed.copies);
    };
    const auto at_a = placed_or_copied(a), at_b = placed_or_copied(b);
    if (!at_a || !at_b) return std::nullopt;
    placed.a = *at_a;
    placed.b = *at_b;
    return placed;
}

}  // namespace backends
