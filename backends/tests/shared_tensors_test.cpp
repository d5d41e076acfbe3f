// The shared tensor memory (PROTOCOL.md section 9, item 18), seen as a backend sees it: the path
// opened read-only and mapped, each input's .npy at its offset.
#include "backends/shared_tensors.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <span>
#include <thread>
#include <vector>

#include "io/npy_file.hpp"

namespace backends {
namespace {

using core::ElementType;

// The memory as a backend maps it.
class BackendView {
  public:
    explicit BackendView(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY)) {
        EXPECT_GE(fd_, 0) << path;
        bytes_ = static_cast<std::size_t>(::lseek(fd_, 0, SEEK_END));
        base_ = ::mmap(nullptr, bytes_, PROT_READ, MAP_SHARED, fd_, 0);
        EXPECT_NE(base_, MAP_FAILED);
    }
    ~BackendView() {
        ::munmap(base_, bytes_);
        ::close(fd_);
    }
    BackendView(const BackendView&) = delete;
    BackendView& operator=(const BackendView&) = delete;

    core::TensorView at(std::uint64_t offset) const {
        const std::span<const std::byte> all(static_cast<const std::byte*>(base_), bytes_);
        return io::view_npy(all.subspan(offset), std::nullopt, "shared tensors");
    }
    int fd() const { return fd_; }

  private:
    int fd_;
    std::size_t bytes_ = 0;
    void* base_ = nullptr;
};

core::Tensor counting(ElementType type, std::int64_t n) {
    core::Tensor t = core::Tensor::zeros(type, {n});
    auto v = t.values<float>();
    for (std::int64_t i = 0; i < n; ++i)
        v[static_cast<std::size_t>(i)] = static_cast<float>(i);
    return t;
}

TEST(SharedTensors, LargeInputsAreReadWhereTheyLieAndSmallOnesAreCopied) {
    ASSERT_TRUE(share_tensors());
    core::Tensor large = counting(ElementType::f32, 1 << 15);  // 128 KiB, made in the memory
    core::Tensor small = counting(ElementType::f32, 3);

    auto placed = place_inputs(large, small);
    ASSERT_TRUE(placed);
    EXPECT_EQ(placed->copies.size(), 1u) << "only the small input is copied";
    const BackendView view(placed->path);
    core::TensorView a = view.at(placed->a), b = view.at(placed->b);
    EXPECT_EQ(a.shape, large.shape);
    EXPECT_EQ(b.shape, small.shape);
    EXPECT_EQ(a.values<float>()[12345], 12345.0f);
    EXPECT_EQ(b.values<float>()[2], 2.0f);
    // Not a copy: the backend sees the tensor's own bytes. The small one (on the heap, like a
    // tensor made before the memory was set up) is a copy.
    large.values<float>()[12345] = -1;
    small.values<float>()[2] = -1;
    EXPECT_EQ(view.at(placed->a).values<float>()[12345], -1.0f);
    EXPECT_EQ(view.at(placed->b).values<float>()[2], 2.0f);
}

// The runner makes a case's expected output on a second thread while the first makes and frees
// tensors too.
TEST(SharedTensors, TensorsAreMadeAndFreedOnSeveralThreadsAtOnce) {
    ASSERT_TRUE(share_tensors());
    const auto churn = [](int seed) {
        for (int i = 0; i < 3000; ++i) {
            const std::int64_t n = (std::int64_t{1} << 14) + (i * 7919 + seed * 104729) % 50000;
            core::Tensor t = core::Tensor::zeros(ElementType::f32, {n});
            t.values<float>()[static_cast<std::size_t>(n - 1)] = static_cast<float>(i);
        }
    };
    std::vector<std::jthread> threads;
    for (int seed = 0; seed < 4; ++seed)
        threads.emplace_back(churn, seed);
    threads.clear();  // joined
    const core::Tensor t = counting(ElementType::f32, 1 << 15);
    const auto placed = place_inputs(t, t);
    ASSERT_TRUE(placed);
    EXPECT_EQ(BackendView(placed->path).at(placed->b).values<float>()[777], 777.0f);
}

TEST(SharedTensors, TheBackendCannotWriteIntoIt) {
    ASSERT_TRUE(share_tensors());
    const core::Tensor t = counting(ElementType::f32, 1 << 15);
    const auto placed = place_inputs(t, t);
    ASSERT_TRUE(placed);
    // Opened for writing (which the seals allow), it takes neither a write nor a writable map.
    const int fd = ::open(placed->path.c_str(), O_RDWR);
    ASSERT_GE(fd, 0);
    EXPECT_EQ(::pwrite(fd, "x", 1, static_cast<off_t>(placed->a) + 200), -1);
    EXPECT_EQ(errno, EPERM);
    EXPECT_EQ(::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), MAP_FAILED);
    EXPECT_EQ(errno, EPERM);
    ::close(fd);
    EXPECT_EQ(BackendView(placed->path).at(placed->a).values<float>()[50], 50.0f);
}

}  // namespace
}  // namespace backends
