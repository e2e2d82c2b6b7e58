// sweep/rows.cpp: per-sample rows as CSV and as HDF5 (one 1-D dataset per column, chunked and
// extended per chunk: analysis tools such as h5py, pandas, MATLAB and R read the columns
// directly). HDF5 is Debian's libhdf5-dev; without it (OBLIQ_HAVE_HDF5 undefined) only CSV.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "sweep/outputs.hpp"
#include "sweep/samples.hpp"
#if defined(OBLIQ_HAVE_HDF5)
#include <hdf5.h>
#endif

namespace obliq::sweep {

struct RowWriter::Impl {
  std::vector<Column> cols;
  std::uint64_t rows = 0, scatter_n = 0;
  std::string csv_path, h5_path;
  std::FILE* csv = nullptr;
  RowMat<double> scatter;
  std::uint64_t written = 0;
#if defined(OBLIQ_HAVE_HDF5)
  hid_t file = -1;
  std::vector<hid_t> sets;  // sample, status, then one per column
#endif
};

RowWriter::RowWriter(const Study& st, const std::string& dir, int rank, int ranks) : impl_(std::make_unique<Impl>()) {
  Impl& w = *impl_;
  w.cols = columns(st);
  w.rows = st.rows;
  w.scatter_n = rank == 0 && st.plots ? st.scatter : 0;
  const std::string suffix = ranks > 1 ? ".rank" + std::to_string(rank) : "";
  if (w.rows == 0) return;
  std::filesystem::create_directories(dir);
  if (st.rows_csv) {
    w.csv_path = (std::filesystem::path(dir) / ("rows" + suffix + ".csv")).string();
    w.csv = std::fopen(w.csv_path.c_str(), "wb");
    if (!w.csv) throw std::runtime_error("cannot write '" + w.csv_path + "'");
    std::fprintf(w.csv, "sample,status");
    for (const auto& c : w.cols) std::fprintf(w.csv, ",%s", c.name.c_str());
    std::fprintf(w.csv, "\n");
  }
#if defined(OBLIQ_HAVE_HDF5)
  if (st.rows_hdf5) {
    w.h5_path = (std::filesystem::path(dir) / ("rows" + suffix + ".h5")).string();
    w.file = H5Fcreate(w.h5_path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (w.file < 0) throw std::runtime_error("cannot write '" + w.h5_path + "'");
    const hsize_t zero = 0, unlimited = H5S_UNLIMITED, chunk = 4096;
    const hid_t space = H5Screate_simple(1, &zero, &unlimited);
    const hid_t props = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(props, 1, &chunk);
    w.sets.push_back(H5Dcreate2(w.file, "sample", H5T_NATIVE_UINT64, space, H5P_DEFAULT, props, H5P_DEFAULT));
    w.sets.push_back(H5Dcreate2(w.file, "status", H5T_NATIVE_INT, space, H5P_DEFAULT, props, H5P_DEFAULT));
    for (const auto& c : w.cols) {
      const hid_t d = H5Dcreate2(w.file, c.name.c_str(), H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, props, H5P_DEFAULT);
      const hid_t str = H5Tcopy(H5T_C_S1);
      H5Tset_size(str, c.unit.size() + 1);
      const hid_t scalar = H5Screate(H5S_SCALAR);
      const hid_t attr = H5Acreate2(d, "unit", str, scalar, H5P_DEFAULT, H5P_DEFAULT);
      H5Awrite(attr, str, c.unit.c_str());
      H5Aclose(attr);
      H5Sclose(scalar);
      H5Tclose(str);
      w.sets.push_back(d);
    }
    H5Pclose(props);
    H5Sclose(space);
  }
#endif
}

RowWriter::~RowWriter() { close(); }

void RowWriter::add(const SampleTable& t) {
  Impl& w = *impl_;
  const std::size_t ncol = w.cols.size();
  // Scatter: the first samples of this process's range.
  if (std::uint64_t(w.scatter.rows()) < w.scatter_n) {
    const std::size_t take = std::size_t(std::min<std::uint64_t>(w.scatter_n - w.scatter.rows(), t.count));
    const Eigen::Index at = w.scatter.rows();
    w.scatter.conservativeResize(at + take, Eigen::Index(ncol));
    w.scatter.bottomRows(take) = t.values.topRows(take);
  }
  if (t.first >= w.rows) return;
  const std::size_t take = std::size_t(std::min<std::uint64_t>(w.rows - t.first, t.count));
  if (w.csv) {
    for (std::size_t r = 0; r < take; ++r) {
      std::fprintf(w.csv, "%llu,%s", (unsigned long long)(t.first + r), outcome_reason(t, r, w.cols).c_str());
      for (std::size_t c = 0; c < ncol; ++c) {
        const double x = t.values(r, c);
        if (std::isnan(x)) std::fprintf(w.csv, ",");
        else std::fprintf(w.csv, ",%.17g", x);
      }
      std::fprintf(w.csv, "\n");
    }
  }
#if defined(OBLIQ_HAVE_HDF5)
  if (w.file >= 0) {
    const hsize_t offset = w.written, n = take, total = w.written + take;
    const hid_t mem = H5Screate_simple(1, &n, nullptr);
    std::vector<std::uint64_t> sample(take);
    std::vector<int> status(take);
    std::vector<double> column(take);
    for (std::size_t r = 0; r < take; ++r) {
      sample[r] = t.first + r;
      status[r] = int(t.status[r]);
    }
    for (std::size_t k = 0; k < w.sets.size(); ++k) {
      H5Dset_extent(w.sets[k], &total);
      const hid_t space = H5Dget_space(w.sets[k]);
      H5Sselect_hyperslab(space, H5S_SELECT_SET, &offset, nullptr, &n, nullptr);
      if (k == 0) {
        H5Dwrite(w.sets[k], H5T_NATIVE_UINT64, mem, space, H5P_DEFAULT, sample.data());
      } else if (k == 1) {
        H5Dwrite(w.sets[k], H5T_NATIVE_INT, mem, space, H5P_DEFAULT, status.data());
      } else {
        for (std::size_t r = 0; r < take; ++r) column[r] = t.values(r, k - 2);
        H5Dwrite(w.sets[k], H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, column.data());
      }
      H5Sclose(space);
    }
    H5Sclose(mem);
  }
#endif
  w.written += take;
}

void RowWriter::close() {
  Impl& w = *impl_;
  if (w.csv) {
    std::fclose(w.csv);
    w.csv = nullptr;
  }
#if defined(OBLIQ_HAVE_HDF5)
  for (hid_t d : w.sets) H5Dclose(d);
  w.sets.clear();
  if (w.file >= 0) H5Fclose(w.file);
  w.file = -1;
#endif
}

std::vector<std::string> RowWriter::files() const {
  std::vector<std::string> f;
  if (!impl_->csv_path.empty()) f.push_back(impl_->csv_path);
  if (!impl_->h5_path.empty()) f.push_back(impl_->h5_path);
  return f;
}

const RowMat<double>& RowWriter::scatter() const { return impl_->scatter; }

}  // namespace obliq::sweep
