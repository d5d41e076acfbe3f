// Executes an add of the ISA named by its argument (avx2: vpaddd ymm; avx512: vpaddd zmm) and
// prints "executed": platform/tests/emulated_isa_test.sh runs it under qemu-x86_64 to
// show what the emulated CPU models do with instructions above their features.
#include <immintrin.h>

#include <cstdio>
#include <cstring>

namespace {

__attribute__((target("avx2"))) int avx2_sum() {
    volatile int seed = 1;
    const __m256i v = _mm256_add_epi32(_mm256_set1_epi32(seed), _mm256_set1_epi32(seed));
    return _mm256_extract_epi32(v, 0);
}

__attribute__((target("avx512f"))) int avx512_sum() {
    volatile int seed = 1;
    const __m512i v = _mm512_add_epi32(_mm512_set1_epi32(seed), _mm512_set1_epi32(seed));
    int lanes[16];
    _mm512_storeu_si512(lanes, v);
    return lanes[0];
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2 || (std::strcmp(argv[1], "avx2") && std::strcmp(argv[1], "avx512"))) {
        std::fprintf(stderr, "usage: isa_instruction_probe avx2|avx512\n");
        return 2;
    }
    const int sum = std::strcmp(argv[1], "avx2") == 0 ? avx2_sum() : avx512_sum();
    std::printf("executed %s: %d\n", argv[1], sum);
    return sum == 2 ? 0 : 1;
}
