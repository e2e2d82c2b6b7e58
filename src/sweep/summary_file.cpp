// sweep/summary_file.cpp: summary.json, and the guard that keeps a sweep from writing over its own
// study file (sweep/outputs.hpp); shared by `obliq sweep` and the Python package's obliq.sweep.
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "sweep/outputs.hpp"

namespace obliq::sweep {

std::string write_summary(const nlohmann::ordered_json& summary, const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / "summary.json").string();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << summary.dump(2) << "\n";
  out.close();
  if (!out) throw std::runtime_error("cannot write '" + path + "'");
  return path;
}

bool writes_over_study(const std::string& study, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::equivalent(fs::path(dir) / "summary.json", study, ec)) return true;
  const fs::path p(study);
  if (!fs::equivalent(p.has_parent_path() ? p.parent_path() : fs::path("."), dir, ec)) return false;
  const std::string name = p.filename().string(), ext = p.extension().string();
  return (name.rfind("rows", 0) == 0 && (ext == ".csv" || ext == ".h5")) || ext == ".png" || ext == ".dat" ||
         ext == ".gp";
}

}  // namespace obliq::sweep
