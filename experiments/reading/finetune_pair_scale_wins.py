"""Build experiments/reading/finetune_pair_scale_wins.json (F5) from the runs and evaluations its rule names; run from the
repository root after them: `python nbs/experiments/reading/finetune_pair_scale_wins.py OUT.json`."""
import json, platform, re, subprocess, sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from unseen_by_query import load, paired            # the diagnostic's per-query statistics
from netlm.runlog import read_metrics

RULE = 'experiments/reading/finetune_pair_scale_wins_rule.md'
COMMANDS = dict(
    s8_world='netlm synth runs/s8/world --probes 100 --days 2 --seed 8',
    s8_rows='netlm preprocess runs/s8/world/measurements.parquet runs/s8/rows --test-fraction 0.2 --val-fraction 0.4',
    s8_control='netlm train --preset cpu-small --data runs/s8/rows --steps 300 --init base --workdir runs/s8_ctl',
    s8_f1c='netlm train --preset cpu-small --data runs/s8/rows --steps 300 --init base --workdir runs/s8_f1c '
           'sampler.pair_rtt_scale=0.5',
    s8_eval='netlm eval --workdir runs/s8_f1c --data runs/s8/rows --split val --against ctl=runs/s8_ctl base=base '
            '--ip-queries 0 --inverse-queries 0 --max-queries 4000 --out runs/s8_f1c_val',
    menog_control='netlm train --preset cpu-small --data runs/menog_f2/rows --steps 600 --init base --workdir runs/f5_ctl '
                  'seed=1',
    menog_f1c='netlm train --preset cpu-small --data runs/menog_f2/rows --steps 600 --init base --workdir runs/f5_f1c '
              'seed=1 sampler.pair_rtt_scale=0.5',
    menog_eval='netlm eval --workdir runs/f5_f1c --data runs/menog_f2/rows --split val --against ctl=runs/f5_ctl '
               'base=base --ip-queries 0 --inverse-queries 0 --reading --out runs/f5_f1c_val',
    menog_control_reading='python -m netlm.reading --model runs/f5_ctl --data runs/menog_f2/rows --split val '
                          '--out runs/f5_ctl_reading.json',
    record='python nbs/experiments/reading/finetune_pair_scale_wins.py nbs/experiments/reading/finetune_pair_scale_wins.json')


def seconds(log='runs/f5_times.log'):
    "Wall seconds of each command, from the runs' timing log."
    out = {}
    for line in Path(log).read_text().splitlines():
        if m := re.match(r'\S+ (\d+) s: .*--workdir (\S+)', line): out.setdefault(m[2], int(m[1]))
    return out


def train(run, log='runs/f5_times.log'):
    last = read_metrics(run)[-1]
    held = read_metrics(run, 'held_out')
    return dict(step=last['step'], loss=last['loss'], eval_loss=held[-1]['loss'] if held else None,
                seconds=seconds(log).get(run))


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


def main(out_path):
    s8 = json.loads(Path('runs/s8_f1c_val/metrics.json').read_text())
    mg = json.loads(Path('runs/f5_f1c_val/metrics.json').read_text())
    reading = json.loads(Path('runs/f5_f1c_val/reading.json').read_text())
    ctl_reading = json.loads(Path('runs/f5_ctl_reading.json').read_text())
    criteria = judge(mg, s8, reading)
    passes = all(c['holds'] for c in criteria)
    # beside: the plain fine-tune (seed 1) against the base, so "keeps improving" has its reference
    beside = {}
    for name, path in (('menog', 'runs/f5_f1c_val'), ('s8', 'runs/s8_f1c_val')):
        q = load(path)
        slices = dict(all=np.ones(len(q['ok']), bool), seen=q['seen'], unseen=~q['seen'])
        beside[name] = {s: dict(control_vs_base=paired(q, 'median.run ctl', 'median.run base', m)) for s, m in slices.items()}
    record = dict(
        name='F5', what='F1c (sampler.pair_rtt_scale=0.5 in the fine-tune) judged by the share of queries won, on a fresh '
                        'synthetic world (seed 8) and a second MENOG training seed', date='2026-11-29', issue=36,
        rule=RULE, commands=COMMANDS,
        machine=dict(cpu=platform.processor() or platform.machine(), avx512='avx512f' in open('/proc/cpuinfo').read()),
        commit=subprocess.run(['git', 'rev-parse', 'HEAD'], capture_output=True, text=True).stdout.strip(),
        train={r: train(f'runs/{r}') for r in ('s8_ctl', 's8_f1c', 'f5_ctl', 'f5_f1c')},
        criteria=criteria, passes=passes, decision=dict(passes=passes, default_changed=False),
        menog=dict(eval=mg, reading=reading, control_reading=ctl_reading, copy_control=[follow(ctl_reading, '2'),
                                                                                        follow(ctl_reading, '0.5')]),
        s8=dict(eval=s8), beside=beside)
    Path(out_path).write_text(json.dumps(record, indent=1))
    for c in criteria: print(('holds ' if c['holds'] else 'FAILS ') + c['criterion'], c['value'])
    print('passes' if passes else 'fails')


if __name__ == '__main__':
    main(sys.argv[1])
