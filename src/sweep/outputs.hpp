// sweep/outputs.hpp: the files a sweep writes (docs/sweep.md "Outputs"): summary.json, the
// per-sample rows of samples [0, study.rows) as CSV and HDF5, the samples kept for the scatter
// plots, and the PNG plots (gnuplot). The statistics never depend on any of these.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "obliq/sweep.hpp"

namespace obliq::sweep {

class RowWriter {
 public:
  // Files go to `dir`; with several ranks each writes its own rows.rank<R>.{csv,h5}.
  RowWriter(const Study& study, const std::string& dir, int rank, int ranks);
  ~RowWriter();
  void add(const SampleTable& t);  // chunks in sample order
  void close();
  std::vector<std::string> files() const;
  // The first study.scatter samples seen (values x columns, NaN missing), for the plots.
  const RowMat<double>& scatter() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Writes `summary` to dir/summary.json (indented by 2, as `obliq sweep` does) and returns its
// path; std::runtime_error ("cannot write 'PATH'") when it cannot.
std::string write_summary(const nlohmann::ordered_json& summary, const std::string& dir);

// Whether the study file is one of the files a sweep writes into `dir` (summary.json, rows*.csv,
// rows*.h5, and the plots' *.png, *.dat, *.gp): it would be truncated before it is used up (same
// device and inode).
bool writes_over_study(const std::string& study, const std::string& dir);

// The PNG plots of a summary: energy-ratio histogram, per-contact impulse histograms, e against
// the post-impact separation velocity (scatter), per contact. Returns the files written; `why`
// says why none were (no gnuplot on the PATH, gnuplot failed).
std::vector<std::string> write_plots(const Study& study, const nlohmann::ordered_json& summary,
                                     const RowMat<double>& scatter, const std::string& dir, std::string& why);

}  // namespace obliq::sweep
