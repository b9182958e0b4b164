// tensim's TT-Metalium host headers: mesh coordinates — MeshShape, MeshCoordinate, MeshCoordinateRange,
// to_linear_index and MeshDeviceConfig (tt-metalium/mesh_coord.hpp, mesh_config.hpp). tensim's meshes are
// 1-D or 2-D. Written for tensim from the documented interface.
#pragma once
#include <algorithm>
#include <ostream>

#include "tensim/host/device.hpp"

namespace tt::tt_metal::distributed {

class MeshShape {
public:
    MeshShape(uint32_t rows, uint32_t cols) : dims_{rows, cols} {}
    MeshShape(uint32_t x, uint32_t y, uint32_t z) : dims_{x, y} {
        if (z != 1) TT_THROW("MeshShape({}, {}, {}): not modelled: 3-D meshes (tensim's meshes are 2-D)", x, y, z);
    }
    explicit MeshShape(uint32_t n) : dims_{n, 1} {}
    uint32_t operator[](std::size_t i) const { return dims_.at(i); }
    std::size_t dims() const { return 2; }
    std::size_t mesh_size() const { return static_cast<std::size_t>(dims_[0]) * dims_[1]; }
    // Row-major strides: a step along dimension 0 skips a row.
    std::size_t get_stride(std::size_t dim) const {
        if (dim >= 2) TT_THROW("MeshShape::get_stride({}): a 2-D mesh has dimensions 0 and 1", dim);
        return dim == 0 ? dims_[1] : 1;
    }
    std::string str() const { return fmt::format("MeshShape([{}, {}])", dims_[0], dims_[1]); }
    friend bool operator==(const MeshShape& a, const MeshShape& b) { return a.dims_ == b.dims_; }
    friend bool operator!=(const MeshShape& a, const MeshShape& b) { return a.dims_ != b.dims_; }
    friend std::ostream& operator<<(std::ostream& os, const MeshShape& s) { return os << s.str(); }

private:
    std::array<uint32_t, 2> dims_;
};
class MeshCoordinate {
public:
    MeshCoordinate(uint32_t row, uint32_t col) : c_{row, col} {}
    explicit MeshCoordinate(uint32_t x) : c_{x, 0}, rank_(1) {}
    explicit MeshCoordinate(tt::stl::Span<const uint32_t> v) : c_{0, 0}, rank_(v.size()) {
        if (v.empty() || v.size() > 3 || (v.size() == 3 && v[2] != 0))
            TT_THROW("MeshCoordinate of {} values: not modelled: tensim's meshes are 1-D or 2-D", v.size());
        rank_ = std::min<std::size_t>(v.size(), 2);
        for (std::size_t i = 0; i < rank_; i++) c_[i] = v[i];
    }
    MeshCoordinate(uint32_t x, uint32_t y, uint32_t z) : c_{x, y} {
        if (z != 0) TT_THROW("MeshCoordinate({}, {}, {}): not modelled: 3-D meshes (tensim's meshes are 2-D)", x, y, z);
    }
    uint32_t operator[](std::size_t i) const { return c_.at(i); }
    std::size_t dims() const { return rank_; }
    tt::stl::Span<const uint32_t> coords() const { return tt::stl::Span<const uint32_t>(c_.data(), rank_); }
    std::string str() const { return fmt::format("MeshCoordinate([{}, {}])", c_[0], c_[1]); }
    friend std::ostream& operator<<(std::ostream& os, const MeshCoordinate& c) { return os << c.str(); }
    friend bool operator==(const MeshCoordinate& a, const MeshCoordinate& b) { return a.c_ == b.c_; }
    friend bool operator!=(const MeshCoordinate& a, const MeshCoordinate& b) { return a.c_ != b.c_; }

private:
    std::array<uint32_t, 2> c_;
    std::size_t rank_ = 2;
};
// An inclusive rectangle of mesh coordinates, walked row-major.
class MeshCoordinateRange {
public:
    MeshCoordinateRange(const MeshShape& s) : start_(0, 0), end_(s[0] - 1, s[1] - 1) {}
    MeshCoordinateRange(const MeshCoordinate& start, const MeshCoordinate& end) : start_(start), end_(end) {}
    const MeshCoordinate& start_coord() const { return start_; }
    const MeshCoordinate& end_coord() const { return end_; }
    bool contains(const MeshCoordinate& c) const {
        return c[0] >= start_[0] && c[0] <= end_[0] && c[1] >= start_[1] && c[1] <= end_[1];
    }
    class Iterator {
    public:
        Iterator(const MeshCoordinateRange* r, uint32_t row, uint32_t col) : r_(r), row_(row), col_(col) {}
        MeshCoordinate operator*() const { return MeshCoordinate(row_, col_); }
        Iterator& operator++() {
            if (++col_ > r_->end_[1]) col_ = r_->start_[1], row_++;
            return *this;
        }
        bool operator!=(const Iterator& o) const { return row_ != o.row_ || col_ != o.col_; }
        bool operator==(const Iterator& o) const { return !(*this != o); }

    private:
        const MeshCoordinateRange* r_;
        uint32_t row_, col_;
    };
    Iterator begin() const { return Iterator(this, start_[0], start_[1]); }
    Iterator end() const { return Iterator(this, end_[0] + 1, start_[1]); }
    friend bool operator==(const MeshCoordinateRange& a, const MeshCoordinateRange& b) {
        return a.start_ == b.start_ && a.end_ == b.end_;
    }
    friend bool operator!=(const MeshCoordinateRange& a, const MeshCoordinateRange& b) { return !(a == b); }

private:
    MeshCoordinate start_, end_;
};
inline size_t to_linear_index(const MeshShape& shape, const MeshCoordinate& c) { return c[0] * shape[1] + c[1]; }
// tensim runs every mesh in one process: there is no multi-host distributed environment.
inline bool UsingDistributedEnvironment() { return false; }
// MeshDeviceConfig (tt-metalium/mesh_config.hpp): a mesh shape, an optional offset into the system's mesh
// and optional physical device ids. tensim places the mesh itself (an offset or explicit ids are an error
// rather than silently ignored).
class MeshDeviceConfig {
public:
    MeshDeviceConfig(const MeshShape& mesh_shape, const std::optional<MeshCoordinate>& offset = std::nullopt,
                     const std::vector<chip_id_t>& physical_device_ids = {})
        : mesh_shape_(mesh_shape), offset_(offset), physical_device_ids_(physical_device_ids) {}
    const MeshShape& mesh_shape() const { return mesh_shape_; }
    const std::optional<MeshCoordinate>& offset() const { return offset_; }
    const std::vector<chip_id_t>& physical_device_ids() const { return physical_device_ids_; }

private:
    MeshShape mesh_shape_;
    std::optional<MeshCoordinate> offset_;
    std::vector<chip_id_t> physical_device_ids_;
};

}  // namespace tt::tt_metal::distributed
