#include "backends/output_region.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <utility>

namespace backends {
namespace {

// Room for the .npy header before the data: numpy's is 128 bytes for most shapes.
constexpr std::uint64_t kHeaderRoom = 4096;
// Sizes are rounded up to this, so that a run's growing outputs replace the region rarely.
constexpr std::uint64_t kGranule = std::uint64_t{1} << 20;

}  // namespace

OutputRegion::~OutputRegion() {
    release();
}

void OutputRegion::release() {
    mapping_.reset();
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    path_.clear();
}

bool OutputRegion::reserve(std::uint64_t bytes) {
    if (bytes > (std::uint64_t{1} << 46)) return false;
    const std::uint64_t wanted = (bytes + kHeaderRoom + kGranule - 1) / kGranule * kGranule;
    if (fd_ >= 0 && mapping_.length() >= wanted) return true;
    // The new region gets another descriptor number than the old while both are open, so a
    // backend never sees the same path and size name two regions.
    const int fd = ::memfd_create("eltwise-output", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return false;
    const auto size = static_cast<off_t>(wanted);
    if (::ftruncate(fd, size) != 0 ||
        ::fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
        ::close(fd);
        return false;
    }
    try {
        io::FileMapping mapping(fd, static_cast<std::size_t>(wanted), true, "memfd");
        release();
        mapping_ = std::move(mapping);
        fd_ = fd;
        path_ = "/proc/" + std::to_string(::getpid()) + "/fd/" + std::to_string(fd);
        return true;
    } catch (const io::HostError&) {
        ::close(fd);
        return false;
    }
}

void OutputRegion::invalidate() {
    if (mapping_) mapping_.data()[0] = std::byte{0};
}

}  // namespace backends
