// `--backend cuda` where the cuda backend cannot run (a build without it, or no device): the
// command refuses before it opens any file, with exit 2 and one line "obliq: backend cuda: ...",
// the same form for impact, dynamics, lcp, simulate and sweep, and never the old "nvcc was not
// found" text.
// Where a GPU and the backend are present the command succeeds and these tests skip.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli_helpers.hpp"

namespace obliq {
namespace {

using namespace cli_test;

void expect_refused_before_output(const std::string& command, const std::string& input_name,
                                  const std::string& input) {
  const auto in = write_temp(input_name, input);
  const auto out = temp_dir() / (input_name + ".out");
  std::filesystem::remove(out);
  const auto r = run_obliq(command + " --backend cuda " + quote(in.string()) + " -o " + quote(out.string()));
  if (r.exit_code == 0) GTEST_SKIP() << "the cuda backend ran here (a GPU is present)";
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("obliq: backend cuda: ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find("nvcc"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out)) << "the output file was created before the backend was checked";
}

TEST(CudaBackendChoice, ImpactRefusesBeforeOpeningTheOutput) {
  expect_refused_before_output("impact", "cuda_choice_impact.jsonl",
                               R"({"M":[[2,0],[0,2]],"qdot":[0,-1],"A_u":[[0,1]],"e":0.5})" "\n");
}

TEST(CudaBackendChoice, DynamicsRefusesBeforeOpeningTheOutput) {
  expect_refused_before_output("dynamics", "cuda_choice_dynamics.jsonl",
                               R"({"M":[[2,0],[0,2]],"qdot":[0,0],"h":[0,-19.62],"A_u":[[0,1]]})" "\n");
}

// Lines with friction are not solved on the cpu behind the flag's back: the same refusal.
TEST(CudaBackendChoice, FrictionalImpactAndDynamicsRefuseBeforeOpeningTheOutput) {
  expect_refused_before_output("impact", "cuda_choice_friction_impact.jsonl",
                               R"({"M":[[2,0],[0,2]],"qdot":[1,-1],"A_u":[[0,1]],"e":0.5,"mu":0.3,"A_t":[[1,0]]})" "\n");
  expect_refused_before_output("dynamics", "cuda_choice_friction_dynamics.jsonl",
                               R"({"M":[[2,0],[0,2]],"qdot":[1,0],"h":[0,19.62],"A_u":[[0,1]],"mu":0.3,"A_t":[[1,0]]})" "\n");
}

// `obliq model --impact --mu X --backend cuda`: the frictional impacts are not solved on the cpu
// behind the flag's back either (the same refusal as without friction).
TEST(CudaBackendChoice, ModelImpactWithFrictionRefuses) {
  const auto in = write_temp("cuda_choice_model.jsonl", R"({"id":1,"q":[0,0,0],"qdot":[1,0,-1]})" "\n");
  for (const char* mu : {"0", "0.3"}) {
    const auto r = run_obliq("model ball --impact --e 0.5 --backend cuda --mu " + std::string(mu) + " --state " +
                             quote(in.string()));
    // Whether a GPU is present is told by the frictionless run; the frictional one must then agree.
    if (r.exit_code == 0 && std::string(mu) == "0") GTEST_SKIP() << "the cuda backend ran here (a GPU is present)";
    EXPECT_EQ(r.exit_code, 2) << "mu " << mu << ": " << r.err;
    EXPECT_EQ(r.err.rfind("obliq: backend cuda: ", 0), 0u) << r.err;
    EXPECT_EQ(r.out, "") << "mu " << mu;
  }
}

TEST(CudaBackendChoice, LcpRefusesBeforeOpeningTheOutput) {
  expect_refused_before_output("lcp", "cuda_choice_lcp.jsonl", R"({"M":[[2,1],[1,2]],"q":[-1,-1]})" "\n");
}

TEST(CudaBackendChoice, SimulateRefusesBeforeOpeningTheOutput) {
  const auto in = write_temp("cuda_choice_simulate.jsonl", R"({"q":[0,0,0.5],"qdot":[0,0,0]})" "\n");
  const auto out = temp_dir() / "cuda_choice_simulate.out";
  std::filesystem::remove(out);
  const auto r = run_obliq("simulate ball --dt 0.001 --steps 3 --backend cuda --state " + quote(in.string()) + " -o " +
                           quote(out.string()));
  if (r.exit_code == 0) GTEST_SKIP() << "the cuda backend ran here (a GPU is present)";
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("obliq: backend cuda: ", 0), 0u) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out)) << "the output file was created before the backend was checked";
}

// `obliq sweep --backend cuda`: refused before the output folder is created; where the CUDA
// backend's library is built and loads, the line names the missing device.
TEST(CudaBackendChoice, SweepRefusesBeforeCreatingTheFolder) {
  const auto study = write_temp("cuda_choice_sweep.json",
                                R"({"mechanism": {"model": "ball", "q": [0, 0, 0.1], "qdot": [0, 0, -1.0]},)"
                                R"( "samples": 10, "seed": 1, "restitution": 0.5})");
  const auto dir = temp_dir() / "cuda_choice_sweep_out";
  std::filesystem::remove_all(dir);
  const auto r = run_obliq("sweep --backend cuda --quiet --no-plots " + quote(study.string()) + " -o " + quote(dir.string()));
  if (r.exit_code == 0) GTEST_SKIP() << "the cuda backend ran here (a GPU is present)";
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("obliq: backend cuda: ", 0), 0u) << r.err;
  const bool no_library = r.err.find("cannot load the CUDA backend library") != std::string::npos ||
                          r.err.find("has no CUDA backend") != std::string::npos;
  if (!no_library) EXPECT_NE(r.err.find("no CUDA device found"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(dir)) << "the output folder was created before the backend was checked";
  // An unknown backend is the option's error (exit 2 from the parser), not a silent cpu run.
  const auto bad = run_obliq("sweep --backend gpu " + quote(study.string()) + " -o " + quote(dir.string()));
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(dir));
}

}  // namespace
}  // namespace obliq
