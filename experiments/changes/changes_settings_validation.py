"""Build experiments/changes_settings_validation.json (C3) from the scores cached in runs/chg/ (C1's, and those of the
validation world's other 31 sources, computed here when missing: about 10 minutes on two CPU cores); run from the
repository root: `python nbs/experiments/changes_settings_validation.py nbs/experiments/changes_settings_validation.json`."""
import json, platform, sys, time
from pathlib import Path
import numpy as np
sys.path.insert(0, str(Path(__file__).parent))
from changes_pair_context import EXP, N_SRC, TOL, git, grid, paired_f1, per_source, scores, world   # C1's
from changes_pair_context_grid import C1, WIDE                                           # C2's grid
from netlm.changes import detect_changes, match_changes, pelt_changes, pit_z, read_measurements, surprise, world_changes
from netlm.infer import Predictor
from netlm.metrics import clean_json
from netlm.world import World

C2 = dict(drift=2.0, threshold=2, hold=60)



def whole_validation():
    """Every source of the validation world, with the pair context's scores (pit, pit_rtt, p_fail): C1's 12 from its
    cache, the other 31 scored."""
    world(5, 0)                                                       # makes the world if it is missing
    m = read_measurements(EXP / 'w5/measurements.parquet')
    pick = np.random.default_rng(0).choice(np.unique(m.src.astype(str)), N_SRC, replace=False)   # C1's 12
    mine = np.isin(m.src.astype(str), pick)
    path = EXP / 'val_rest_pair.npz'
    if not path.exists():
        t0 = time.time(); s = surprise(Predictor.from_pretrained('base'), m[~mine], context='pair')
        np.savez(path, seconds=time.time() - t0, **s)
    parts, s = (scores('val', m[mine], 'pair'), dict(np.load(path))), {}
    for k in ('pit', 'pit_rtt', 'p_fail'):
        s[k] = np.empty(len(m)); s[k][mine], s[k][~mine] = parts[0][k], parts[1][k]
    return m, world_changes(World.load(str(EXP / 'w5')), m), s, float(parts[1]['seconds'])


if __name__ == '__main__':
    m, truth, s, seconds = whole_validation()
    z = pit_z(s['pit'])
    runs = grid(m, truth, z, WIDE)
    best = runs[0]
    at = lambda s: next(r[1] for r in runs if r[0] == s)
    record = dict(
        name='C3', date='2026-11-29', issue=36, rule='experiments/changes_settings_validation_rule.md',
        what="C1's detector (the shipped base, the pair's context) with its CUSUM settings chosen on all 43 sources of "
             "the validation world, on C2's widened grid",
        commands=['python nbs/experiments/changes_settings_validation.py nbs/experiments/changes_settings_validation.json'],
        machine=dict(cpu=platform.processor() or platform.machine(), cores=2), commit=git('rev-parse', 'HEAD'),
        validation=dict(sources=int(len(np.unique(m.src.astype(str)))), measurements=len(m), true_changes=truth.num_rows,
                        seconds_other_31=round(seconds, 1), chosen=best[0], result=best[1], c1=at(C1), c2=at(C2),
                        on_edge={k: best[0][k] in (v[0], v[-1]) for k, v in WIDE.items()},
                        top=[dict(**a, f1=b['f1'], precision=b['precision'], recall=b['recall']) for a, b in runs[:12]]))
    m, truth = world(11, 1)                            # the test world, once more, with the chosen settings
    z = pit_z(scores('test', m, 'pair')['pit'])
    src = np.unique(m.src.astype(str))
    found = dict(c3=detect_changes(m, z, **best[0]), c1=detect_changes(m, z, **C1), c2=detect_changes(m, z, **C2),
                 pelt=pelt_changes(m, penalty=64))
    counts = {k: per_source(d, truth, src) for k, d in found.items()}
    record['test'] = dict(c3=match_changes(found['c3'], truth, TOL, n_boot=1000),
                          c3_minus_c1_f1=paired_f1(counts['c3'], counts['c1']),
                          c3_minus_pelt_f1=paired_f1(counts['c3'], counts['pelt']),
                          readings={k: match_changes(found[k], truth, TOL)['f1'] for k in ('c1', 'c2', 'c3', 'pelt')})
    json.dump(clean_json(record), open(sys.argv[1], 'w'), indent=1)
    print(json.dumps(clean_json(record['validation']))[:1500], json.dumps(clean_json(record['test']))[:1500])
