// sweep/outputs.hpp: what a sweep writes beside its summary (docs/sweep.md "Outputs"): the
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

// The PNG plots of a summary: energy-ratio histogram, per-contact impulse histograms, e against
// the post-impact separation velocity (scatter), per contact. Returns the files written; `why`
// says why none were (no gnuplot on the PATH, gnuplot failed).
std::vector<std::string> write_plots(const Study& study, const nlohmann::ordered_json& summary,
                                     const RowMat<double>& scatter, const std::string& dir, std::string& why);

}  // namespace obliq::sweep
