"""Build experiments/changes/changes_rtt_pit.json (C5) from the scores cached in runs/chg/ (C1's and C3's, and a fresh world's,
computed here when the rule lets it be read: about 5 minutes on two CPU cores); run from the repository root:
`python -m experiments.changes.changes_rtt_pit experiments/changes/changes_rtt_pit.json`."""
import json, platform, sys
import numpy as np
from scipy.special import ndtri
from experiments.common import TOL, WIDE, git, grid, reading, scores, whole_validation, world   # C1's, C2's, C3's
from netlm.changes import detect_changes, match_changes, pelt_changes, pit_z
from netlm.config import CUSUM_DEFAULTS
from netlm.metrics import clean_json


def rtt_z(s: dict) -> np.ndarray:
    "C5's score: Phi^-1 of the PIT among replies for a reply, Phi^-1(1 - p_fail / 2) for a failure, clipped to +-4."
    failed = np.isnan(s['pit_rtt'])
    return np.clip(ndtri(np.clip(np.where(failed, 1 - s['p_fail'] / 2, s['pit_rtt']), 1e-12, 1 - 1e-12)), -4, 4)



if __name__ == '__main__':
    m, truth, s, _ = whole_validation()
    runs = grid(m, truth, rtt_z(s), WIDE)
    best = runs[0]
    c3 = match_changes(detect_changes(m, pit_z(s['pit']), **CUSUM_DEFAULTS), truth, TOL)
    passes = best[1]['f1'] >= 0.540 and best[1]['precision'] >= 0.30
    record = dict(
        name='C5', date='2026-11-29', issue=36, rule='experiments/changes/changes_rtt_pit_rule.md',
        what="netlm changes's detector with a reply scored by its PIT among replies (not capped by p_fail)",
        commands=['python -m experiments.changes.changes_rtt_pit experiments/changes/changes_rtt_pit.json'],
        machine=dict(cpu=platform.processor() or platform.machine(), cores=2), commit=git('rev-parse', 'HEAD'),
        validation=dict(sources=int(len(np.unique(m.src.astype(str)))), true_changes=truth.num_rows, chosen=best[0],
                        result=best[1], c3=c3, on_edge={k: best[0][k] in (v[0], v[-1]) for k, v in WIDE.items()},
                        top=[dict(**a, f1=b['f1'], precision=b['precision'], recall=b['recall']) for a, b in runs[:8]]),
        passes=passes)
    if passes:                                         # a fresh world, once
        m, truth = world(13, 3)
        sf = scores('fresh13', m, 'pair')
        found = dict(c5=detect_changes(m, rtt_z(sf), **best[0]), c3=detect_changes(m, pit_z(sf['pit']), **CUSUM_DEFAULTS),
                     pelt=pelt_changes(m, penalty=64))
        record['test'] = reading(m, truth, found, [('c5', 'c3'), ('c5', 'pelt'), ('c3', 'pelt')])
    json.dump(clean_json(record), open(sys.argv[1], 'w'), indent=1)
    print(json.dumps(clean_json(record['validation']))[:1500], json.dumps(clean_json(record.get('test', {})))[:2500])
