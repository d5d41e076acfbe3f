// main() for the fuzz targets in builds without libFuzzer: runs LLVMFuzzerTestOneInput once on
// every file named, and on every file in the directories named (the corpus and regressions).
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {
namespace fs = std::filesystem;

std::vector<fs::path> inputs_of(const std::vector<std::string>& arguments) {
    std::vector<fs::path> files;
    for (const std::string& argument : arguments) {
        if (!fs::is_directory(argument)) {
            files.emplace_back(argument);
            continue;
        }
        for (const fs::directory_entry& e : fs::recursive_directory_iterator(argument))
            if (e.is_regular_file()) files.push_back(e.path());
    }
    return files;
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<fs::path> files = inputs_of({argv + 1, argv + argc});
    for (const fs::path& file : files) {
        std::ifstream in(file, std::ios::binary);
        if (!in) {
            std::cerr << "cannot read " << file << "\n";
            return 2;
        }
        const std::string bytes{std::istreambuf_iterator<char>(in), {}};
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    }
    std::cout << "ran " << files.size() << " inputs\n";
    return files.empty() ? 1 : 0;
}
