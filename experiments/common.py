"""Helpers the experiments' record scripts share: the change-detection worlds, score cache and statistics (C1's, which
C2 to C7 and the figure reuse), and the fine-tune criteria and run summaries of the reading issue (F5's, which F6 to F8
keep). Every function here was moved verbatim from the script named above it, but for names that two scripts used
for different things: F5's timing-log readers are `timed_seconds` and `timed_train`, F7's `queue_seconds` and
`queue_train`, F7's arms and data `F7_ARMS` and `F7_DATA` (its scripts import them under their old names). The
scripts import them as `from experiments.common import ...` and run from the repository root as
`python -m experiments.FOLDER.SCRIPT`."""
import itertools, json, platform, re, subprocess, time
from pathlib import Path

import duckdb
import numpy as np
import pyarrow.compute as pc
from netlm.changes import detect_changes, match_changes, read_measurements, surprise, world_changes
from netlm.infer import Predictor
from netlm.metrics import bootstrap, bootstrap_ratio, won
from netlm.runlog import read_metrics
from netlm.synth import generate
from netlm.world import World


def git(*a): return subprocess.run(['git', *a], capture_output=True, text=True).stdout.strip()


# ---- change detection: C1's worlds, cache and statistics (from changes/changes_pair_context.py) ----

TOL, N_SRC, EXP = 3600, 12, Path('runs/chg')
GRID = dict(drift=(0.25, 0.5, 1.0, 1.5), threshold=(4, 6, 8, 12, 16, 24, 32), hold=(0, 10, 30))   # 26_changes's


def world(seed, pick_seed):
    "26_changes's worlds: 30 probes, 2 days; N_SRC sources drawn at random; the measurements and the true changes."
    if not (EXP / f'w{seed}/measurements.parquet').exists():
        generate(str(EXP / f'w{seed}'), probes=30, days=2, seed=seed, progress=False)
    m = read_measurements(EXP / f'w{seed}/measurements.parquet')
    pick = np.random.default_rng(pick_seed).choice(np.unique(m.src.astype(str)), N_SRC, replace=False)
    m = m[np.isin(m.src.astype(str), pick)]
    return m, world_changes(World.load(str(EXP / f'w{seed}')), m)


def scores(name, m, context):
    "The base's surprise with `context`, cached under runs/chg/."
    path = EXP / f'{name}_{context}.npz'
    if not path.exists():
        t0 = time.time(); s = surprise(Predictor.from_pretrained('base'), m, context=context)
        np.savez(path, seconds=time.time() - t0, **s)
    return dict(np.load(path))


def grid(m, truth, z, settings: dict = GRID) -> list[tuple[dict, dict]]:
    "The CUSUM's result at every setting of `settings` on scores `z`, best F1 first (ties in grid order)."
    runs = [(dict(drift=d, threshold=h, hold=k), match_changes(detect_changes(m, z, drift=d, threshold=h, hold=k), truth, TOL))
            for d, h, k in itertools.product(*settings.values())]
    return sorted(runs, key=lambda r: -r[1]['f1'])


def per_source(detected, truth, sources):
    "True positives, detections and true changes of each source (matching is per pair, so per source it adds up)."
    sel = lambda t, s: t.filter(pc.equal(t['src_addr'], s))
    r = [match_changes(sel(detected, s), sel(truth, s), TOL) for s in sources]    # a loop per source (12)
    return np.array([[x['tp'], x['detected'], x['true']] for x in r], np.float64)


def paired_f1(a, b, n_boot=1000, seed=0):
    "F1 of a minus F1 of b, 95% interval from resampling the sources (the same draws for both)."
    rng = np.random.default_rng(seed)
    w = np.stack([np.bincount(rng.integers(0, len(a), len(a)), minlength=len(a)) for _ in range(n_boot)])
    f1 = lambda c: 2 * (w @ c[:, 0]) / (w @ c[:, 1] + w @ c[:, 2])
    point = lambda c: 2 * c[:, 0].sum() / (c[:, 1].sum() + c[:, 2].sum())
    return [float(point(a) - point(b)), *np.percentile(f1(a) - f1(b), [2.5, 97.5]).tolist()]


def reading(m, truth, found: dict, pairs) -> dict:
    """A test world's reading: every detector of `found` matched with 95% intervals over sources, and the paired F1
    differences of `pairs` [(a, b), ...] as 'a_minus_b_f1'."""
    src = np.unique(m.src.astype(str))
    counts = {k: per_source(d, truth, src) for k, d in found.items()}
    return dict(measurements=len(m), true_changes=truth.num_rows,
                **{k: match_changes(d, truth, TOL, n_boot=1000) for k, d in found.items()},
                **{f'{a}_minus_{b}_f1': paired_f1(counts[a], counts[b]) for a, b in pairs})


# C2's wider grid and C1's chosen corner (from changes/changes_pair_context_grid.py)
WIDE = dict(drift=(0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0), threshold=(2, 3, 4, 6, 8, 12, 16, 24, 32), hold=(0, 10, 30, 60))
C1 = dict(drift=1.5, threshold=4, hold=30)


# from changes/changes_settings_validation.py (C3)
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


# from changes/changes_warmup.py (C6)
def ramped(name, m):
    "The base's surprise with the pair's context and ramped first cuts, cached under runs/chg/."
    path = EXP / f'{name}_pair_ramp.npz'
    if not path.exists():
        t0 = time.time(); s = surprise(Predictor.from_pretrained('base'), m, context='pair', ramp=True)
        np.savez(path, seconds=time.time() - t0, **s)
    return dict(np.load(path))


# ---- the reading issue's fine-tunes ----

# per-query statistics (from reading/unseen_by_query.py)
def load(path):
    t = duckdb.sql(f"select * from '{path}/queries.parquet'").fetchnumpy()
    return {k: np.asarray(v) for k, v in t.items()}

def paired(q, a, b, mask):
    ok = mask & q['ok'] & np.isfinite(q[a]) & np.isfinite(q[b])
    ea, eb, unit = np.abs(q[a][ok] - q['rtt_ms'][ok]), np.abs(q[b][ok] - q['rtt_ms'][ok]), q['probe'][ok]
    w = won(ea, eb)
    return dict(queries=int(ok.sum()), probes=int(len(set(unit))),
                median_ae=list(bootstrap_ratio(ea, eb, unit, 'median', 1000, 0)),
                wins=[float(w.mean()), *bootstrap(w, unit, 'mean', 1000, 0)],
                log_ratio_median=float(np.median(np.log(np.maximum(ea, 1e-9) / np.maximum(eb, 1e-9)))))


# F5's timing log, criteria and copy probe (from reading/finetune_pair_scale_wins.py)
def timed_seconds(log='runs/f5_times.log'):
    "Wall seconds of each command, from the runs' timing log."
    out = {}
    for line in Path(log).read_text().splitlines():
        if m := re.match(r'\S+ (\d+) s: .*--workdir (\S+)', line): out.setdefault(m[2], int(m[1]))
    return out


def timed_train(run, log='runs/f5_times.log'):
    "A run's last step, training loss, last held-out loss and wall seconds (from `log`, F5's and F6's format)."
    last = read_metrics(run)[-1]
    held = read_metrics(run, 'held_out')
    return dict(step=last['step'], loss=last['loss'], eval_loss=held[-1]['loss'] if held else None,
                seconds=timed_seconds(log).get(run))


follow = lambda reading, f: reading['copy_probe']['factors'][f]['by_bucket']['1']['follow']


def judge(mg, s8, reading, world='seed-8', menog='MENOG (seed 1)') -> list[dict]:
    """The rule's six criteria (F5's; F6's and F7's are the same) for the model of the MENOG and synthetic evaluations
    (`world` and `menog` name them in the criteria's text)."""
    v = lambda m, who, s, k: m['versus'][who][s][k]
    copy = (follow(reading, '2'), follow(reading, '0.5'))
    criteria = [
        dict(criterion=f'{menog} single-occurrence copy probe >= 1.9x doubled and <= 0.53x halved',
             value=list(copy), holds=copy[0] >= 1.9 and copy[1] <= 0.53),
        dict(criterion='MENOG all queries against the plain fine-tune: wins >= 0.5 and median-AE ratio upper bound <= 1.05',
             value=dict(wins=v(mg, 'run ctl', 'all', 'wins'), median_ae=v(mg, 'run ctl', 'all', 'median_ae')),
             holds=v(mg, 'run ctl', 'all', 'wins')[0] >= 0.5 and v(mg, 'run ctl', 'all', 'median_ae')[2] <= 1.05),
        dict(criterion='MENOG unseen pairs against the plain fine-tune: wins >= 0.45 and its upper bound >= 0.5',
             value=v(mg, 'run ctl', 'unseen', 'wins'),
             holds=v(mg, 'run ctl', 'unseen', 'wins')[0] >= 0.45 and v(mg, 'run ctl', 'unseen', 'wins')[2] >= 0.5),
        dict(criterion=f'{world} unseen pairs against the plain fine-tune: wins >= 0.47 and its upper bound >= 0.5',
             value=v(s8, 'run ctl', 'unseen', 'wins'),
             holds=v(s8, 'run ctl', 'unseen', 'wins')[0] >= 0.47 and v(s8, 'run ctl', 'unseen', 'wins')[2] >= 0.5),
        dict(criterion=f'{world} all queries against the plain fine-tune: wins >= 0.47 and median-AE ratio upper bound <= 1.10',
             value=dict(wins=v(s8, 'run ctl', 'all', 'wins'), median_ae=v(s8, 'run ctl', 'all', 'median_ae')),
             holds=v(s8, 'run ctl', 'all', 'wins')[0] >= 0.47 and v(s8, 'run ctl', 'all', 'median_ae')[2] <= 1.10),
        dict(criterion='MENOG unseen pairs against the base with no fine-tuning: wins >= 0.5',
             value=v(mg, 'run base', 'unseen', 'wins'), holds=v(mg, 'run base', 'unseen', 'wins')[0] >= 0.5)]
    return criteria


# F7's arms, data, queue log, provenance and printout (from reading/finetune_gentle.py; F8 reuses them)
F7_ARMS = dict(f7a='lr=1e-3', f7b='lr=1e-3 sampler.pair_rtt_scale=0.5')
F7_DATA = dict(
    menog='netlm preprocess runs/menog_ft/measurements.parquet runs/menog_f2/rows --test-fraction 0.2 --val-fraction 0.4',
    s9='netlm synth runs/s9/world --probes 100 --days 2 --seed 9; netlm preprocess runs/s9/world/measurements.parquet '
       'runs/s9/rows --test-fraction 0.2 --val-fraction 0.4')


def queue_seconds(log='runs/times.log') -> dict:
    "Wall seconds of each training run, from the queue's timing log."
    out = {}
    for line in Path(log).read_text().splitlines():
        _, s, _, rest = line.split(' ', 3)
        if ' train ' in rest: out[rest.split('--workdir ')[1].split()[0]] = int(s)
    return out


def provenance(queue) -> dict:
    "What ran (the queue's commands, in order), on what machine, at what commit: every F record's header."
    return dict(commands=[l for l in Path(queue).read_text().splitlines() if l.strip()],
                machine=dict(cpu=platform.processor() or platform.machine(), cores=2,
                             avx512='avx512f' in open('/proc/cpuinfo').read()),
                commit=subprocess.run(['git', 'rev-parse', 'HEAD'], capture_output=True, text=True).stdout.strip())


def show(arms, control_copy, decision):
    "Each arm's copy and criteria, then the control's copy and the decision."
    for n, a in arms.items():
        print(n, a['settings'], 'copy', [round(x, 3) for x in a['copy']])
        for c in a['criteria']: print(('  holds ' if c['holds'] else '  FAILS ') + c['criterion'], c['value'])
    print('control copy', control_copy, '->', decision)


def queue_train(run) -> dict:
    "A run's last step, training loss, last held-out loss and wall seconds."
    last, held = read_metrics(run)[-1], read_metrics(run, 'held_out')
    return dict(step=last['step'], loss=last['loss'], held_out_loss=held[-1]['loss'] if held else None,
                tokens_per_s=last['tokens_per_s'], seconds=queue_seconds().get(run))


def arm(name, settings=None) -> dict:
    """One arm's evaluations (`runs/NAME_menog_val` with its reading, `runs/NAME_s9_val`) and the rule's six criteria;
    `settings` name the arm (F7's own by default)."""
    mg = json.loads(Path(f'runs/{name}_menog_val/metrics.json').read_text())
    reading = json.loads(Path(f'runs/{name}_menog_val/reading.json').read_text())
    s9 = json.loads(Path(f'runs/{name}_s9_val/metrics.json').read_text())
    criteria = judge(mg, s9, reading, world='seed-9', menog='MENOG')
    return dict(settings=settings or F7_ARMS[name], criteria=criteria, passes=all(c['holds'] for c in criteria),
                copy=[follow(reading, '2'), follow(reading, '0.5')],
                menog=dict(eval=mg, reading=reading), s9=dict(eval=s9))


# from reading/mixed_jitter_6k_cpu.py (R17c; R12c reuses it)
def load_eval(path) -> dict:
    "An evaluation's metrics, and its reading where it measured one."
    out = dict(eval=json.loads(Path(path, 'metrics.json').read_text()))
    if (reading := Path(path, 'reading.json')).is_file(): out['reading'] = json.loads(reading.read_text())
    return out
