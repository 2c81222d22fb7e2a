"""Build experiments/reading/unseen_by_query.json from the two `netlm eval` outputs its commands name (their queries.parquet
and metrics.json); run from the repository root."""
import json, platform, subprocess, sys
import numpy as np
from netlm.metrics import won
from experiments.common import load, paired   # moved there for F5

ARMS = {'f1c': 'median.model', 'f3': 'median.run f3', 'f4': 'median.run f4'}
CTL = 'median.run ctl'
BASE = {'pair_median': 'median.pair_median', 'vivaldi': 'median.vivaldi', 'matrix_factorization': 'median.matrix_factorization'}



def summary(path):
    q = load(path)
    slices = dict(all=np.ones(len(q['ok']), bool), seen=q['seen'], unseen=~q['seen'])
    out = dict(queries=int(len(q['ok'])), answered={k: int((m & q['ok']).sum()) for k, m in slices.items()},
               probes={k: int(len(set(q['probe'][m & q['ok']]))) for k, m in slices.items()},
               versus_control={arm: {s: paired(q, col, CTL, m) for s, m in slices.items()} for arm, col in ARMS.items()})
    un = ~q['seen'] & q['ok']
    cols = dict(ARMS, control=CTL, **BASE)
    out['unseen_error_percentiles'] = dict(levels=[10, 25, 40, 45, 50, 55, 60, 75, 90],
        **{n: np.percentile(np.abs(q[c][un] - q['rtt_ms'][un]), [10, 25, 40, 45, 50, 55, 60, 75, 90]).round(3).tolist()
           for n, c in cols.items()})
    rows = []
    for p in sorted(set(q['probe'][un]), key=lambda p: (-int((q['probe'][un] == p).sum()), p)):   # most queries first
        m = un & (q['probe'] == p)
        e = {n: float(np.median(np.abs(q[c][m] - q['rtt_ms'][m]))) for n, c in cols.items()}
        ef, ec = np.abs(q[ARMS['f1c']][m] - q['rtt_ms'][m]), np.abs(q[CTL][m] - q['rtt_ms'][m])
        rows.append(dict(probe=str(p), queries=int(m.sum()), cuts=int(len(set(q['cut'][m]))),
                         destinations=int(len(set(q['dst'][m]))), median_rtt_ms=float(np.median(q['rtt_ms'][m])),
                         median_ae_ms=e, f1c_wins=float(won(ef, ec).mean())))
    out['unseen_by_probe'] = rows
    return out

def git(*a): return subprocess.run(['git', *a], capture_output=True, text=True).stdout.strip()

if __name__ == '__main__':
    record = dict(
        name='unseen_by_query', date='2026-11-29', issue=36,
        question="Which of MENOG's validation probes carries F1c's, F3's and F4's 1.5x on unseen pairs, and is it a cost "
                 "of the rescaling or of the statistic (a ratio of two pooled medians over 200 queries on 6 probes)?",
        kind='diagnostic on runs already judged by their rules; no choice made, no rule changed; validation probes only',
        runs=dict(control='runs/f2_ctl, runs/s7_ft_ctl (plain fine-tunes)', f1c='runs/f2_f1c, runs/s7_ft_f1c',
                  f3='runs/f3_menog, runs/s7_ft_f3', f4='runs/f4_menog, runs/s7_ft_f4',
                  records=['experiments/reading/finetune_first_unscored.json',
                           'experiments/reading/finetune_pair_scale_quarter.json']),
        commands=['netlm eval --workdir runs/f2_f1c --data runs/menog_f2/rows --split val --against ctl=runs/f2_ctl '
                  'f3=runs/f3_menog f4=runs/f4_menog --out runs/q_menog_val --ip-queries 0 --inverse-queries 0',
                  'netlm eval --workdir runs/s7_ft_f1c --data runs/s7/rows --split val --against ctl=runs/s7_ft_ctl '
                  'f3=runs/s7_ft_f3 f4=runs/s7_ft_f4 --out runs/q_s7_val --ip-queries 0 --inverse-queries 0 --max-queries 1000',
                  'python -m experiments.reading.unseen_by_query experiments/reading/unseen_by_query.json (from the repository root: probe-bootstrap intervals by netlm.metrics over the two queries.parquet)'],
        statistics=dict(median_ae='ratio of the two pooled median absolute errors, 95% interval over probes (the rules\' statistic)',
                        wins="share of queries where the arm's absolute error is below the control's, ties half, 95% interval over probes",
                        log_ratio_median="median over queries of log(arm's error / control's error)"),
        machine=dict(cpu=platform.processor() or platform.machine(), avx512='avx512f' in open('/proc/cpuinfo').read()),
        commit=git('rev-parse', 'HEAD'),
        menog=summary('runs/q_menog_val') | dict(metrics_f1c_vs_ctl=json.load(open('runs/q_menog_val/metrics.json'))['versus']['run ctl']),
        seed7=summary('runs/q_s7_val') | dict(metrics_f1c_vs_ctl=json.load(open('runs/q_s7_val/metrics.json'))['versus']['run ctl']),
    )
    json.dump(record, open(sys.argv[1], 'w'), indent=1)
    print(json.dumps({k: record[k]['versus_control'] for k in ('menog', 'seed7')}, indent=0)[:3000])
