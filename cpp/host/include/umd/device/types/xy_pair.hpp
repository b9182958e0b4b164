// tensim: tt-umd's coordinate pairs (umd/device/types/xy_pair.hpp): tt::umd::xy_pair is TT-Metalium's
// CoreCoord (str() renders "(x=X,y=Y)"), cxy_pair adds a chip id.
#pragma once
#include "tensim/host/coords.hpp"

namespace tt::umd {
using xy_pair = ::CoreCoord;
struct cxy_pair : xy_pair {
    std::size_t chip = 0;
    cxy_pair() = default;
    cxy_pair(std::size_t ichip, xy_pair pair) : xy_pair(pair), chip(ichip) {}
    cxy_pair(std::size_t ichip, std::size_t x, std::size_t y) : xy_pair(x, y), chip(ichip) {}
    std::string str() const { return fmt::format("(chip={},x={},y={})", chip, x, y); }
    friend bool operator==(const cxy_pair& a, const cxy_pair& b) {
        return a.chip == b.chip && a.x == b.x && a.y == b.y;
    }
    friend bool operator<(const cxy_pair& a, const cxy_pair& b) {
        return a.chip != b.chip ? a.chip < b.chip : a.x != b.x ? a.x < b.x : a.y < b.y;
    }
};
}  // namespace tt::umd
using tt_cxy_pair = tt::umd::cxy_pair;

template <>
struct std::hash<tt::umd::cxy_pair> {
    std::size_t operator()(const tt::umd::cxy_pair& p) const noexcept {
        return std::hash<std::size_t>()(p.chip) ^ (std::hash<std::size_t>()(p.x) << 1) ^ (std::hash<std::size_t>()(p.y) << 2);
    }
};
