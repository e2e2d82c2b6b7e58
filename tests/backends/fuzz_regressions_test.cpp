// Draws of bench/differential_fuzz (seed 9) on which one backend failed its certificate while the
// other answered, fixed since (docs/certificate.md, "Core against reference"). Each line as the
// fuzz dumped it; the oracle is the other backend and the law's own conditions.
#include <gtest/gtest.h>

#include <string>

#include "io/solve_each.hpp"
#include "obliq/io/scenario_json.hpp"

using namespace obliq;

namespace {

Scenario read(const std::string& line) {
  io::ScenarioLine l = io::parse_scenario_line(line, 1, io::Use::impact);
  EXPECT_EQ(l.error, "");
  return l.scenario;
}

// Both backends answer ok (each answer certified) and agree on x to 1e-6 of its scale (the
// differential fuzz's comparison; the second draw has multipliers of 1e11 and agrees to 2.6e-9).
void expect_agreement(const Scenario& s, std::vector<Answer>& cpu, std::vector<Answer>& ref) {
  cpu = solve_each({s}, false, {Backend::cpu, 1});
  ref = solve_each({s}, false, {Backend::reference, 1});
  ASSERT_EQ(cpu[0].status, Status::ok) << status_reason(cpu[0].status);
  ASSERT_EQ(ref[0].status, Status::ok) << status_reason(ref[0].status);
  EXPECT_LE((cpu[0].x - ref[0].x).norm(), 1e-6 * (ref[0].x.norm() + s.qdot.norm()));
}

}  // namespace

// Two pairs of opposing resting rows (a, -c a) that, with the two bilateral rows, span only two
// of three dimensions to rounding. The reference's projection on its binding rows kept a
// singular value of 6e-15 and returned x ~ 1e22, then a least-squares x that broke the bilateral
// rows by 7e-4 of their scale: "not certified". The least-distance point meets every row.
TEST(FuzzRegressions, OpposingRowsInTheBilateralSpan) {
  const Scenario s = read(R"({"A_b":[[-0.47065985852702397,-0.42003195048372066,0.0016462901306764754],[-0.6535154166206373,0.7588794498217316,0.12320250627243048]],"A_u":[[0.5843716495442581,0.9219392789247447,1.2864573024857577],[-0.4876022357731362,-0.7585563615721064,1.903620620589329],[-1.3104173706850288,0.7558348661361063,-1.734969188153916],[0.002637191294989502,1.2909235271987147,0.11608481510067614],[-0.0016604751112891895,-0.8128141449441769,-0.07309137817931691],[-2.0621355866055544,-1.5480942621816163,0.033540792478268244],[6.150826226404526,4.6175716333217185,-0.10004365734714696]],"Adot_qdot":[0.0,0.0,0.0,0.0,0.0,-0.16965085281820091,0.2563985078425519,0.5528322518543195,-0.13313685091068142],"M":[[3.2907880083955376,1.5361583110765065,-0.6050787050164845],[1.5361583110765065,3.2186773264269215,-1.6818602265575984],[-0.6050787050164845,-1.6818602265575984,2.529924425979653]],"e":[0.5362049176608017,0.4263322356835415,0.16199943241156037,0.8897821707318967,0.6231917080738109,0.03366269283666201,0.008271290930480598],"gap_tol":1e-09,"h":[0.0,0.0,0.0],"i_u":[-1.7759375959252321,-0.22903062949274214,1.7848292099699288],"id":"opposing-resting","law":"complementarity","phi_u":[0.0,0.0,0.0,0.0,0.0,0.0,0.0],"qdot":[-0.00517349539772205,0.005555396687439262,-0.06166137046866807],"u":[0.0,0.0,0.0],"vel_tol":1e-09})");
  std::vector<Answer> cpu, ref;
  expect_agreement(s, cpu, ref);
  const Eigen::VectorXd slack_b = s.A_b * ref[0].x;  // bilateral targets are 0
  for (Eigen::Index i = 0; i < slack_b.size(); ++i)
    EXPECT_LE(std::abs(slack_b(i)), 1e-12 * s.A_b.row(i).norm() * ref[0].x.norm()) << "bilateral row " << i;
}

// Unilateral rows 2 and 5 are the same row with e = 0.089 and 0.632: row 5's target is higher by
// 1.62 (1e-5 of the row's scale), so row 2 is loose and carries no multiplier. With multipliers
// of 1e11 that nearly cancel, the core's binding test took row 2 in and split the impulse
// between the two copies: "not certified" (complementarity broken on row 2).
TEST(FuzzRegressions, DuplicatedRowWithALowerTarget) {
  const Scenario s = read(R"({"A_b":[[0.5537343956714135,2.169089595493601,0.11659832723458488,-0.4507936501221146],[0.818363308113839,-0.051980364341837115,2.618788351754961,-0.6167242905581364]],"A_u":[[-0.36615230373112956,-0.1408388940596868,-0.7487951837819458,0.02852240599408494],[2.1409568224119067,0.4828065159929464,-0.04929408229673053,-0.146552605989213],[-1.7136870943368472,1.1497063180222613,2.4398035876044677,-0.43935619749334376],[0.660404960193733,0.8112603761475996,-0.2532243560951535,-0.17058489461904291],[-1.2379325483663768,0.870217962251116,-1.246470565324324,0.3721261099162765],[-1.7136870943368472,1.1497063180222613,2.4398035876044677,-0.43935619749334376]],"Adot_qdot":[0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0],"M":[[1247.4753850400139,-332.7312234486445,1600.9252571803368,354.0203354355379],[-332.7312234486445,101.02068890544504,-435.7634029072779,-105.36404849859275],[1600.9252571803368,-435.7634029072779,2641.1526453929537,710.7367786616373],[354.0203354355379,-105.36404849859275,710.7367786616373,218.45350444454544]],"e":[0.23869420443717618,0.3743461825957384,0.08855951279350673,0.8999506217902494,0.5895692090937605,0.6316611640873184],"gap_tol":1e-09,"h":[0.0,0.0,0.0,0.0],"i_u":[0.6755564041885725,1.3194606049805107,-2.0903638009121583,1.2580877933184733],"id":"duplicate-lower-target","law":"complementarity","phi_u":[0.0,0.0,0.0,0.0,0.0,0.0],"qdot":[-0.7518654816001623,-2.077429518285701,-0.8818036439337978,-0.5967991769034372],"u":[0.0,0.0,0.0,0.0],"vel_tol":1e-09})");
  std::vector<Answer> cpu, ref;
  expect_agreement(s, cpu, ref);
  const int m_b = int(s.A_b.rows());
  for (const std::vector<Answer>* a : {&cpu, &ref}) {
    EXPECT_EQ((*a)[0].lambda(m_b + 2), 0.0);
    EXPECT_GT((*a)[0].lambda(m_b + 5), 0.0);
  }
}
