"""Test helpers for netlm's notebooks: not part of the package (notebooks import it with `from testkit import ...`)."""

# ---- helper C (issue 38): known-answer worlds, a reference score, the shared data ----------------------------
from pathlib import Path

import numpy as np

from netlm.measurements import Measurements
from netlm.metrics import QUANTILE_GRID, crps_from_quantiles, pit_values


def plane_world(n_hosts: int = 60, n_pairs: int = 1500, seed: int = 0, noise: float = 0.0):
    "Hosts on a 200x200 ms plane with heights; measurements of random pairs (a known answer for baselines)."
    rng = np.random.default_rng(seed)
    pos, height = rng.uniform(0, 200, (n_hosts, 2)), rng.uniform(1, 10, n_hosts)
    names = np.array([f'10.0.{k // 256}.{k % 256}' for k in range(n_hosts)], dtype=object)
    i, j = rng.integers(0, n_hosts, n_pairs), rng.integers(0, n_hosts, n_pairs)
    i, j = i[i != j], j[i != j]
    rtt = np.linalg.norm(pos[i] - pos[j], axis=1) + height[i] + height[j]
    rtt = rtt * (1 + noise * rng.standard_normal(len(rtt)))
    return Measurements(names[i], names[j], np.arange(len(i)), rtt), pos, height, names


def distribution_metrics(quantiles, true_ms, levels=QUANTILE_GRID) -> dict:
    "CRPS and calibration (PIT histogram and its largest deviation from uniform) on successful pings."
    y = np.asarray(true_ms, np.float64)
    ok = y >= 0
    crps = crps_from_quantiles(np.asarray(quantiles)[ok], y[ok], levels)
    pit = pit_values(np.asarray(quantiles)[ok], y[ok], levels)
    hist = np.histogram(pit, bins=10, range=(0, 1))[0] / max(len(pit), 1)
    return dict(crps_ms=float(crps.mean()), pit_hist=hist.round(4).tolist(),
                calibration_error=float(np.abs(hist - 0.1).max()))


REPO = Path(__file__).resolve().parent.parent        # nbs/ is in the repository; ../shared sits next to it
MENOG_SAMPLE = 'atlas/menog/menog_ping_results_dev.jsonl.gz'


def shared_data(relpath) -> Path | None:
    "`../shared/data/relpath` next to the repository, or None when it is not there (the test then skips)."
    path = REPO.parent / 'shared' / 'data' / relpath
    return path if path.exists() else None
# ---- end of helper C's block ---------------------------------------------------------------------------------
