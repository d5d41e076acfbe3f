#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <system_error>

#include "core/error.hpp"

namespace io {
namespace {

[[noreturn]] void cannot_write(const std::string& path, const std::string& why) {
    throw core::Error(core::ErrorKind::input, "cannot write '" + path + "': " + why);
}

std::string describe_errno(int err) {
    return std::generic_category().message(err);
}

struct TempFile {
    std::string name;
    int fd;
};

// O_EXCL makes the name ours alone; the counter avoids clashes between threads of one process,
// the pid between processes, and the retry loop with leftovers of a crashed earlier run.
TempFile create_temp_next_to(const std::string& path) {
    static std::atomic<unsigned> counter{0};
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::string name = path + ".tmp." + std::to_string(::getpid()) + "." +
                           std::to_string(counter.fetch_add(1));
        const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) return {std::move(name), fd};
        if (errno != EEXIST)
            cannot_write(path, "cannot create a temporary file: " + describe_errno(errno));
    }
    cannot_write(path, "no free temporary file name");
}

// Returns 0 or the errno of the failed write(2).
int write_all(int fd, std::span<const std::byte> data) {
    while (!data.empty()) {
        const ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno;
        data = data.subspan(static_cast<std::size_t>(n));
    }
    return 0;
}

// Returns 0 or the errno of the first step that failed; always closes the descriptor.
int fill_and_close(int fd, std::span<const std::span<const std::byte>> pieces) {
    int err = 0;
    for (const auto& piece : pieces)
        if (err == 0) err = write_all(fd, piece);
    // Without fsync a crash shortly after the rename could leave an empty file in place.
    if (err == 0 && ::fsync(fd) != 0) err = errno;
    if (::close(fd) != 0 && err == 0) err = errno;
    return err;
}

}  // namespace

void write_file_in_place(const std::string& path,
                         std::span<const std::span<const std::byte>> pieces) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) cannot_write(path, describe_errno(errno));
    int err = 0;
    off_t size = 0;
    for (const auto& piece : pieces) {
        if (err == 0) err = write_all(fd, piece);
        size += static_cast<off_t>(piece.size());
    }
    if (err == 0 && ::ftruncate(fd, size) != 0) err = errno;
    if (::close(fd) != 0 && err == 0) err = errno;
    if (err != 0) cannot_write(path, describe_errno(err));
}

void write_file_atomically(const std::string& path,
                           std::span<const std::span<const std::byte>> pieces) {
    if (path.empty()) cannot_write(path, "the path is empty");
    const TempFile temp = create_temp_next_to(path);
    int err = fill_and_close(temp.fd, pieces);
    if (err == 0 && std::rename(temp.name.c_str(), path.c_str()) != 0) err = errno;
    if (err != 0) {
        ::unlink(temp.name.c_str());
        cannot_write(path, describe_errno(err));
    }
}

}  // namespace io
