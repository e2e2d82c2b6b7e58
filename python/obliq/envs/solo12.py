"""Solo12VelocityEnv: QuadrupedVelocityEnv's task on Solo-12 (Open Dynamic Robot Initiative, 2.5 kg),
loaded from a URDF (by default the package's obliq/models/solo12.urdf, the wheel's copy of the
repository's models/solo12.urdf: example-robot-data's, meshes stripped)."""
from pathlib import Path

import numpy as np

from .._obliq import Model
from .velocity import QuadrupedVelocityEnv

FEET = ("FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT")
URDF = Path(__file__).resolve().parents[1] / "models" / "solo12.urdf"  # package data (python/CMakeLists.txt)


class Solo12VelocityEnv(QuadrupedVelocityEnv):
    """The velocity task of QuadrupedVelocityEnv (observation, action, reward, termination,
    commands and domain randomisation as there) on Solo-12: q = (base position, quaternion x, y,
    z, w, 12 joints FL, FR, HL, HR: HAA, HFE, KFE), contacts at the four FOOT frames (points).

    `urdf`: the Solo-12 URDF to load (default: URDF, the one the wheel ships, installed from the
    repository's models/solo12.urdf). Nominal stance: example-robot-data's SRDF "straight_standing" (HFE 0.8,
    KFE -1.6 in front, -0.8, 1.6 behind), trunk about 0.21 m high. PD: kp 5 N m/rad, kd 0.05 N m
    s/rad, |tau| <= 2.5 N m (Solo-12's motors give about 2.7), explicit over a 5 ms step: the knee
    coordinate's inertia is 5.4e-4 kg m^2 at the stance, so kp dt^2 / I = 0.23 and kd dt / I =
    0.46. Terminated below 0.12 m (trunk height) or tilted over 60 degrees."""

    nominal = np.array([0.0, 0.8, -1.6, 0.0, 0.8, -1.6, 0.0, -0.8, 1.6, 0.0, -0.8, 1.6])
    kp, kd, max_torque = 5.0, 0.05, 2.5
    target_height = 0.21  # the stance's trunk height under the PD law's sag (0.207 m measured)
    min_height = 0.12

    def __init__(self, num_envs, *, urdf=URDF, **kwargs):
        if not Path(urdf).is_file():
            raise FileNotFoundError(f"urdf: no file {urdf} (an obliq imported from the source tree, not the "
                                    "installed wheel, has no models/solo12.urdf: pass the repository's)")
        self.urdf = str(urdf)
        super().__init__(num_envs, **kwargs)

    def _make_model(self):
        model = Model.from_urdf(self.urdf, free_base=True)
        for foot in FEET:
            model.add_ground_contact(foot)
        return model
