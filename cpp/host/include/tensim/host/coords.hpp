// tensim's TT-Metalium host headers: core coordinates (CoreCoord, CoreRange, CoreRangeSet) and the
// helpers that enumerate them. Written for tensim from the documented interface.
#pragma once
#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <stdexcept>
#include <functional>
#include <string>
#include <vector>

#include "tensim/fmt.hpp"
#include "tt_stl/span.hpp"

struct CoreCoord {
    std::size_t x = 0;
    std::size_t y = 0;
    constexpr CoreCoord() = default;
    constexpr CoreCoord(std::size_t x_, std::size_t y_) : x(x_), y(y_) {}
    std::string str() const { return fmt::format("(x={},y={})", x, y); }
    friend constexpr bool operator==(const CoreCoord&, const CoreCoord&) = default;
    // Lexicographic: x, then y (as tt-umd's xy_pair).
    friend constexpr auto operator<=>(const CoreCoord& a, const CoreCoord& b) {
        if (auto c = a.x <=> b.x; c != 0) return c;
        return a.y <=> b.y;
    }
};
using tt_xy_pair = CoreCoord;
using xy_pair = CoreCoord;

class CoreRange {
public:
    CoreCoord start_coord;
    CoreCoord end_coord;
    CoreRange(const CoreCoord& point) : start_coord(point), end_coord(point) {}
    CoreRange(const CoreCoord& start, const CoreCoord& end) : start_coord(start), end_coord(end) {
        if (end.x < start.x || end.y < start.y)
            throw std::invalid_argument(fmt::format("CoreRange: end {} is before start {}", end.str(), start.str()));
    }
    bool contains(const CoreCoord& c) const {
        return c.x >= start_coord.x && c.x <= end_coord.x && c.y >= start_coord.y && c.y <= end_coord.y;
    }
    bool contains(const CoreRange& r) const { return contains(r.start_coord) && contains(r.end_coord); }
    bool intersects(const CoreRange& o) const {
        return start_coord.x <= o.end_coord.x && o.start_coord.x <= end_coord.x && start_coord.y <= o.end_coord.y &&
               o.start_coord.y <= end_coord.y;
    }
    std::size_t size() const { return (end_coord.x - start_coord.x + 1) * (end_coord.y - start_coord.y + 1); }
    CoreCoord grid_size() const { return {end_coord.x - start_coord.x + 1, end_coord.y - start_coord.y + 1}; }
    std::string str() const { return "[" + start_coord.str() + " - " + end_coord.str() + "]"; }
    friend bool operator==(const CoreRange&, const CoreRange&) = default;
    friend bool operator<(const CoreRange& a, const CoreRange& b) {
        return a.start_coord != b.start_coord ? a.start_coord < b.start_coord : a.end_coord < b.end_coord;
    }
    // Row-major iteration over the cores.
    class iterator {
    public:
        iterator(const CoreRange* r, CoreCoord c) : r_(r), c_(c) {}
        CoreCoord operator*() const { return c_; }
        iterator& operator++() {
            if (++c_.x > r_->end_coord.x) {
                c_.x = r_->start_coord.x;
                ++c_.y;
            }
            return *this;
        }
        bool operator!=(const iterator& o) const { return c_ != o.c_; }
        bool operator==(const iterator& o) const { return c_ == o.c_; }

    private:
        const CoreRange* r_;
        CoreCoord c_;
    };
    iterator begin() const { return iterator(this, start_coord); }
    iterator end() const { return iterator(this, {start_coord.x, end_coord.y + 1}); }
};

class CoreRangeSet {
public:
    CoreRangeSet() = default;
    CoreRangeSet(const CoreRange& r) : ranges_{r} {}
    CoreRangeSet(std::initializer_list<CoreRange> l) : ranges_(l) { check(); }
    CoreRangeSet(const std::set<CoreRange>& s) : ranges_(s.begin(), s.end()) { check(); }
    CoreRangeSet(std::vector<CoreRange>&& v) : ranges_(std::move(v)) { check(); }
    CoreRangeSet(const std::vector<CoreRange>& v) : ranges_(v) { check(); }
    CoreRangeSet(tt::stl::Span<const CoreRange> s) : ranges_(s.begin(), s.end()) { check(); }
    CoreRangeSet(tt::stl::Span<const CoreCoord> s) {
        for (const auto& c : s) ranges_.emplace_back(c);
        check();
    }
    const std::vector<CoreRange>& ranges() const { return ranges_; }
    std::size_t size() const { return ranges_.size(); }
    bool empty() const { return ranges_.empty(); }
    uint32_t num_cores() const {
        uint32_t n = 0;
        for (const auto& r : ranges_) n += r.size();
        return n;
    }
    bool contains(const CoreCoord& c) const {
        return std::any_of(ranges_.begin(), ranges_.end(), [&](const CoreRange& r) { return r.contains(c); });
    }
    bool contains(const CoreRange& o) const {
        for (const auto& c : o)
            if (!contains(c)) return false;
        return true;
    }
    bool intersects(const CoreRange& o) const {
        return std::any_of(ranges_.begin(), ranges_.end(), [&](const CoreRange& r) { return r.intersects(o); });
    }
    CoreRange bounding_box() const {
        if (ranges_.empty()) throw std::runtime_error("CoreRangeSet::bounding_box of an empty set");
        CoreCoord lo = ranges_[0].start_coord, hi = ranges_[0].end_coord;
        for (const auto& r : ranges_) {
            lo = {std::min(lo.x, r.start_coord.x), std::min(lo.y, r.start_coord.y)};
            hi = {std::max(hi.x, r.end_coord.x), std::max(hi.y, r.end_coord.y)};
        }
        return {lo, hi};
    }
    template <typename T>
    CoreRangeSet merge(const T& other) const {
        std::vector<CoreRange> v = ranges_;
        for (const auto& r : CoreRangeSet(other).ranges())
            if (!CoreRangeSet(v).contains(r)) v.push_back(r);
        CoreRangeSet out;
        out.ranges_ = std::move(v);
        return out;
    }
    std::string str() const {
        std::string s = "{";
        for (size_t i = 0; i < ranges_.size(); i++) s += (i ? ", " : "") + ranges_[i].str();
        return s + "}";
    }
    friend bool operator==(const CoreRangeSet&, const CoreRangeSet&) = default;

private:
    void check() const {
        for (size_t i = 0; i < ranges_.size(); i++)
            for (size_t j = i + 1; j < ranges_.size(); j++)
                if (ranges_[i].intersects(ranges_[j]))
                    throw std::invalid_argument("CoreRangeSet: ranges " + ranges_[i].str() + " and " + ranges_[j].str() +
                                                " overlap");
    }
    std::vector<CoreRange> ranges_;
};

inline std::vector<CoreCoord> grid_to_cores(uint32_t num_cores, uint32_t grid_size_x, uint32_t grid_size_y,
                                            bool row_wise = false) {
    if (num_cores > grid_size_x * grid_size_y)
        throw std::invalid_argument(fmt::format("grid_to_cores: {} cores do not fit a {}x{} grid", num_cores,
                                                grid_size_x, grid_size_y));
    std::vector<CoreCoord> v;
    for (uint32_t i = 0; i < num_cores; i++)
        v.push_back(row_wise ? CoreCoord{i % grid_size_x, i / grid_size_x} : CoreCoord{i / grid_size_y, i % grid_size_y});
    return v;
}

inline std::vector<CoreCoord> corerange_to_cores(const CoreRangeSet& crs, std::optional<uint32_t> max_cores = std::nullopt,
                                                 bool row_wise = false) {
    std::vector<CoreCoord> v;
    for (const auto& r : crs.ranges()) {
        if (row_wise) {
            for (size_t y = r.start_coord.y; y <= r.end_coord.y; y++)
                for (size_t x = r.start_coord.x; x <= r.end_coord.x; x++) v.push_back({x, y});
        } else {
            for (size_t x = r.start_coord.x; x <= r.end_coord.x; x++)
                for (size_t y = r.start_coord.y; y <= r.end_coord.y; y++) v.push_back({x, y});
        }
    }
    if (max_cores && v.size() > *max_cores) v.resize(*max_cores);
    return v;
}

namespace tt::tt_metal {
using ::CoreCoord;
using ::CoreRange;
using ::CoreRangeSet;
using ::corerange_to_cores;
using ::grid_to_cores;
}  // namespace tt::tt_metal

template <>
struct std::hash<CoreCoord> {
    std::size_t operator()(const CoreCoord& c) const noexcept { return std::hash<std::size_t>()(c.x * 1000003u + c.y); }
};
