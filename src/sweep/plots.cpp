// sweep/plots.cpp: PNG plots of a sweep through gnuplot (Debian's gnuplot-nox, pngcairo
// terminal). Each plot is a data file and a gnuplot script beside its PNG, so a person can
// restyle it and run `gnuplot NAME.gp` again. Plotting never feeds back into the statistics.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "sweep/outputs.hpp"
#include "sweep/samples.hpp"

namespace obliq::sweep {
namespace {

using json = nlohmann::ordered_json;
namespace fs = std::filesystem;

std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

bool have_gnuplot() { return std::system("command -v gnuplot >/dev/null 2>&1") == 0; }

// Histogram of one output as "bin_centre count" lines.
void histogram_block(std::ofstream& dat, const json& h) {
  const double lo = h["low"].get<double>(), hi = h["high"].get<double>();
  const auto counts = h["counts"].get<std::vector<std::uint64_t>>();
  const double w = (hi - lo) / double(counts.size());
  for (std::size_t b = 0; b < counts.size(); ++b) dat << lo + (double(b) + 0.5) * w << " " << counts[b] << "\n";
}

// gnuplot's enhanced text would read '_' as a subscript.
std::string label(const std::string& s) {
  std::string o;
  for (char c : s) o += c == '_' ? std::string("\\\\_") : std::string(1, c);
  return o;
}

const char* kHeader =
    "set terminal pngcairo size 1000,640 enhanced font 'Sans,12'\n"
    "set grid\nset key outside right top\nset border lw 1.2\n";

bool run_gnuplot(const fs::path& script) {
  return std::system(("gnuplot " + quoted(script.string()) + " 2>/dev/null").c_str()) == 0;
}

}  // namespace

std::vector<std::string> write_plots(const Study& st, const json& summary, const RowMat<double>& scatter,
                                     const std::string& dir, std::string& why) {
  std::vector<std::string> written;
  if (!have_gnuplot()) {
    why = "gnuplot is not on the PATH (Debian: apt-get install gnuplot-nox)";
    return written;
  }
  const Layout L = layout(st);
  const std::vector<Column> cols = columns(st);
  const json& out = summary["outputs"];
  const fs::path d(dir);
  const std::string title = label(st.name) + " (" + std::to_string(summary["samples_done"].get<std::uint64_t>()) +
                            " samples, seed " + std::to_string(st.seed) + ")";
  const std::string unit = st.model ? "N s" : "generalized";
  const std::string vunit = st.model ? "m/s" : "generalized";
  auto plot = [&](const std::string& name, const std::string& body) {
    const fs::path gp = d / (name + ".gp");
    std::ofstream(gp) << kHeader << "set output " << quoted((d / (name + ".png")).string()) << "\n" << body;
    if (run_gnuplot(gp)) written.push_back((d / (name + ".png")).string());
    else why = "gnuplot failed on " + gp.string();
  };

  // A histogram of one output.
  auto histogram = [&](const std::string& name, const std::string& what, const std::string& xlabel) {
    const json& h = out[name]["histogram"];
    std::ofstream dat(d / (name + ".dat"));
    histogram_block(dat, h);
    dat.close();
    const double w = (h["high"].get<double>() - h["low"].get<double>()) / double(h["counts"].size());
    char body[1024];
    std::snprintf(body, sizeof body,
                  "set title \"%s: %s\"\n"
                  "set xlabel '%s'\nset ylabel 'samples'\n"
                  "set style fill solid 0.6 border -1\nset boxwidth %.17g\nunset key\nset xrange [%.17g:%.17g]\n"
                  "plot %s using 1:2 with boxes lc rgb '#3366aa'\n",
                  what.c_str(), title.c_str(), xlabel.c_str(), w, h["low"].get<double>(), h["high"].get<double>(),
                  quoted((d / (name + ".dat")).string()).c_str());
    plot(name, body);
  };
  // A scatter of each contact's e against one output per contact (column `at + r`) or per sample
  // (column `at`, `per_contact` false).
  auto scatter_e = [&](const std::string& name, int at, bool per_contact, const std::string& ylabel) {
    std::ofstream dat(d / (name + ".dat"));
    std::string series;
    for (int r = 0; r < L.m_u; ++r) {
      for (Eigen::Index s = 0; s < scatter.rows(); ++s) {
        const double e = scatter(s, L.e + r), v = scatter(s, at + (per_contact ? r : 0));
        if (!std::isnan(e) && !std::isnan(v)) dat << e << " " << v << "\n";
      }
      dat << "\n\n";
      series += std::string(r ? ", " : "plot ") + quoted((d / (name + ".dat")).string()) + " index " +
                std::to_string(r) + " using 1:2 with points pt 7 ps 0.4 title " +
                quoted(st.contact_names[L.m_b + r]) + " noenhanced";
    }
    dat.close();
    plot(name, "set title \"Restitution against outcome: " + title +
                   "\"\nset xlabel 'restitution coefficient e of the contact (1)'\nset ylabel '" + ylabel + "'\n" +
                   series + "\n");
  };

  if (st.trajectory) {  // trajectory samples: energy left at T, impact counts, e against impacts
    histogram("energy_ratio_T", "Kinetic energy left at T", "energy ratio KE(T) / KE(0) (1)");
    histogram("impacts", "Impacts in [0, T]", "impacts before T (count)");
    if (L.m_u > 0 && scatter.rows() > 0) scatter_e("e_vs_impacts", L.impacts, false, "impacts before T (count)");
    return written;
  }
  // 1. Energy ratio histogram.
  histogram("energy_ratio", "Kinetic energy ratio after impact", "energy ratio KE_{post} / KE_{pre} (1)");
  // 2. Impulse histograms: one panel per contact (their scales differ by orders of magnitude).
  if (L.m_b + L.m_u > 0) {
    const int rows_n = L.m_b + L.m_u;
    const int ncol = rows_n <= 3 ? rows_n : 2 + (rows_n > 4), nrow = (rows_n + ncol - 1) / ncol;
    std::ofstream dat(d / "impulses.dat");
    std::string panels;
    for (int r = 0; r < rows_n; ++r) {
      const json& h = out[cols[L.impulse + r].name]["histogram"];
      histogram_block(dat, h);
      dat << "\n\n";
      const double w = (h["high"].get<double>() - h["low"].get<double>()) / double(h["counts"].size());
      char panel[1024];
      std::snprintf(panel, sizeof panel,
                    "set title %s noenhanced\nset xrange [%.17g:%.17g]\nset boxwidth %.17g\n"
                    "plot %s index %d using 1:2 with boxes lc rgb '#3366aa' notitle\n",
                    quoted("impulse at " + st.contact_names[r]).c_str(), h["low"].get<double>(),
                    h["high"].get<double>(), w, quoted((d / "impulses.dat").string()).c_str(), r);
      panels += panel;
    }
    dat.close();
    char head[512];
    std::snprintf(head, sizeof head,
                  "set terminal pngcairo size %d,%d enhanced font 'Sans,11'\nset grid\nset border lw 1.2\n"
                  "set style fill solid 0.6 border -1\nset xlabel 'contact impulse lambda (%s)'\n"
                  "set ylabel 'samples'\nset xtics rotate by -30\n",
                  420 * ncol + 80, 330 * nrow + 60, unit.c_str());
    const fs::path gp = d / "impulses.gp";
    std::ofstream(gp) << head << "set output " << quoted((d / "impulses.png").string()) << "\n"
                      << "set multiplot layout " << nrow << "," << ncol << " title \"Contact impulses: " << title
                      << "\"\n"
                      << panels << "unset multiplot\n";
    if (run_gnuplot(gp)) written.push_back((d / "impulses.png").string());
    else why = "gnuplot failed on " + gp.string();
  }
  // 3. Scatter of e against the post-impact separation velocity, per unilateral contact.
  if (L.m_u > 0 && scatter.rows() > 0)
    scatter_e("e_vs_separation", L.separation, true, "post-impact normal velocity of the contact (" + vunit + ")");
  return written;
}

}  // namespace obliq::sweep
