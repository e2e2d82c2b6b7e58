// python/src/sweep.cpp: obliq._sweep, a Monte Carlo sweep (docs/sweep.md) run in this process by
// the sweep library (src/sweep: the same study parser, sampler, statistics and summary as
// `obliq sweep`), returning the summary and the per-sample rows of samples [0, rows) as arrays;
// files (summary.json, rows.csv, plots) only into a folder the caller names. The GIL is released
// while the samples run; Ctrl-C stops after the chunk in flight (KeyboardInterrupt).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "obliq/sweep.hpp"
#include "sweep/outputs.hpp"
#include "sweep/samples.hpp"

namespace obliq::python {
namespace {

using namespace nb::literals;

// The rows of samples [0, kept): values column by column (column c is values[c kept ..]).
struct Rows {
  std::size_t kept = 0, columns = 0;
  std::vector<double> values;
  std::vector<std::uint64_t> sample;
  std::vector<std::int32_t> status;
  std::vector<std::string> reason;

  void add(const sweep::SampleTable& t, const std::vector<sweep::Column>& cols) {
    for (std::size_t r = 0; r < t.count && t.first + r < kept; ++r) {
      const std::size_t s = std::size_t(t.first + r);
      for (std::size_t c = 0; c < columns; ++c) values[c * kept + s] = t.values(Eigen::Index(r), Eigen::Index(c));
      sample[s] = t.first + r;
      status[s] = std::int32_t(t.status[r]);
      reason[s] = sweep::outcome_reason(t, r, cols);
    }
  }
};

nb::dict run(const std::string& text, const std::string& path, const std::string& base_dir, int threads,
             std::size_t chunk, std::optional<std::uint64_t> rows, const std::string& out_dir, bool plots) {
  threads_from(threads);
  if (chunk < 1) throw std::invalid_argument("chunk must be at least 1, not 0");
  sweep::Study st = path.empty() ? sweep::read_study(text, base_dir, "the study") : sweep::load_study(path);
  if (rows) st.rows = *rows;
  const std::vector<sweep::Column> cols = sweep::columns(st);
  Rows kept;
  kept.kept = std::size_t(std::min(st.rows, st.samples));
  kept.columns = cols.size();
  kept.values.assign(kept.kept * kept.columns, 0.0);
  kept.sample.assign(kept.kept, 0);
  kept.status.assign(kept.kept, std::int32_t(Status::not_solved));
  kept.reason.assign(kept.kept, std::string());

  std::optional<sweep::RowWriter> writer;
  if (!out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    if (ec || !std::filesystem::is_directory(out_dir))
      throw std::invalid_argument("out: cannot write '" + out_dir + "': " + (ec ? ec.message() : "not a directory"));
    if (!path.empty() && sweep::writes_over_study(path, out_dir))
      throw std::invalid_argument("out: cannot write into '" + out_dir + "': the study file '" + path +
                                  "' would be overwritten");
    writer.emplace(st, out_dir, 0, 1);
  }

  std::atomic<bool> stop{false};
  bool interrupted = false;
  sweep::Options opt;
  opt.threads = threads;
  opt.chunk = chunk;
  opt.stop = &stop;
  opt.on_chunk = [&](const sweep::SampleTable& t) {  // on the calling thread, in sample order
    if (writer) writer->add(t);
    kept.add(t, cols);
    nb::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) interrupted = true, stop = true;  // the exception stays set
  };
  sweep::Result result;
  {
    nb::gil_scoped_release release;
    result = sweep::run(st, opt);
    if (writer) writer->close();
  }
  if (interrupted) throw nb::python_error();
  const auto sum = sweep::summary(st, result, sweep::run_info(result, threads, chunk, 1));

  std::vector<std::string> files;
  if (writer) {
    files.push_back(sweep::write_summary(sum, out_dir));
    for (const auto& f : writer->files()) files.push_back(f);
    if (st.plots && plots) {
      std::string why;
      for (const auto& f : sweep::write_plots(st, sum, writer->scatter(), out_dir, why)) files.push_back(f);
    }
  }
  nb::dict r;
  r["summary"] = sum.dump();
  std::vector<std::pair<std::string, std::string>> columns;
  for (const auto& c : cols) columns.emplace_back(c.name, c.unit);
  r["columns"] = columns;
  r["values"] = owned(std::move(kept.values), {kept.columns, kept.kept});
  r["sample"] = owned(std::move(kept.sample), {kept.kept});
  r["status_code"] = owned(std::move(kept.status), {kept.kept});
  r["status"] = kept.reason;
  r["files"] = files;
  return r;
}

}  // namespace

void bind_sweep(nb::module_& m) {
  m.def("_sweep", &run, "text"_a, "path"_a, "base_dir"_a, "threads"_a, "chunk"_a, "rows"_a.none(), "out"_a,
        "plots"_a,
        "(study JSON text or '', study path or '', base folder of a text's model paths, threads, chunk, rows "
        "override or None, output folder or '', plots) -> {summary (JSON text), columns [(name, unit)], values "
        "(columns x rows), sample, status_code, status (reasons), files}");
}

}  // namespace obliq::python
