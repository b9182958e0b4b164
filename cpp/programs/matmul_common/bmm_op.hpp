// Host helpers tensim's C++ matmul programs share (the role of an example-local bmm_op.hpp): the Pearson
// correlation of two bf16 vectors and a row-major reference matmul.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include <tt-metalium/bfloat16.hpp>

// Pearson correlation coefficient of two equally long vectors (1 for identical shapes of data).
inline float check_bfloat16_vector_pcc(const std::vector<tt::tt_metal::bfloat16>& a,
                                       const std::vector<tt::tt_metal::bfloat16>& b) {
    if (a.size() != b.size() || a.empty()) return 0.0f;
    double ma = 0, mb = 0;
    for (size_t i = 0; i < a.size(); i++) {
        ma += static_cast<float>(a[i]);
        mb += static_cast<float>(b[i]);
    }
    ma /= a.size();
    mb /= b.size();
    double cov = 0, va = 0, vb = 0;
    for (size_t i = 0; i < a.size(); i++) {
        double x = static_cast<float>(a[i]) - ma, y = static_cast<float>(b[i]) - mb;
        cov += x * y;
        va += x * x;
        vb += y * y;
    }
    return (va == 0 || vb == 0) ? 0.0f : static_cast<float>(cov / std::sqrt(va * vb));
}

// C = A·B for row-major bf16 A (M×K) and B (K×N), accumulated in float.
inline std::vector<tt::tt_metal::bfloat16> golden_matmul(const std::vector<tt::tt_metal::bfloat16>& a,
                                                         const std::vector<tt::tt_metal::bfloat16>& b, uint32_t M,
                                                         uint32_t N, uint32_t K) {
    std::vector<float> acc(static_cast<size_t>(M) * N, 0.0f);
    for (uint32_t i = 0; i < M; i++)
        for (uint32_t k = 0; k < K; k++) {
            float x = static_cast<float>(a[i * K + k]);
            for (uint32_t j = 0; j < N; j++) acc[i * N + j] += x * static_cast<float>(b[k * N + j]);
        }
    std::vector<tt::tt_metal::bfloat16> c(acc.size());
    for (size_t i = 0; i < acc.size(); i++) c[i] = tt::tt_metal::bfloat16(acc[i]);
    return c;
}
