#include "backends/shared_region.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <utility>

namespace backends {
namespace {

// Room for the .npy header before the data: numpy's is 128 bytes for most shapes.
constexpr std::uint64_t kRegionHeaderRoom = 4096;
// Sizes are rounded up to this, so that a run's growing tensors replace the region rarely.
constexpr std::uint64_t kGranule = std::uint64_t{1} << 20;

}  // namespace

SharedRegion::~SharedRegion() {
    release();
}

void SharedRegion::release() {
    mapping_.reset();
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    path_.clear();
}

bool SharedRegion::reserve(std::uint64_t bytes) {
    if (bytes > (std::uint64_t{1} << 46)) return false;
    const std::uint64_t wanted = (bytes + kRegionHeaderRoom + kGranule - 1) / kGranule * kGranule;
    if (fd_ >= 0 && mapping_.length() >= wanted) return true;
    // The new region gets another descriptor number than the old while both are open, so a
    // backend never sees the same path and size name two regions.
    const int fd = ::memfd_create("eltwise-region", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return false;
    // Inputs: mapped writable before F_SEAL_FUTURE_WRITE, after which no other writable mapping
    // or write() can be made (the backend's open of path() then only reads).
    const int seals = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL |
                      (writer_ == RegionWriter::validator_only ? F_SEAL_FUTURE_WRITE : 0);
    try {
        if (::ftruncate(fd, static_cast<off_t>(wanted)) != 0) throw io::HostError("ftruncate");
        io::FileMapping mapping(fd, static_cast<std::size_t>(wanted), true, "memfd",
                                writer_ == RegionWriter::backend);
        if (::fcntl(fd, F_ADD_SEALS, seals) != 0) throw io::HostError("F_ADD_SEALS");
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

void SharedRegion::invalidate() {
    if (mapping_) mapping_.data()[0] = std::byte{0};
}

}  // namespace backends
