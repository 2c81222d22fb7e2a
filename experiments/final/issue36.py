"""Build experiments/final/issue36.json, the reading issue's closing evaluation, from the runs its commands make (test
probes, each read once): for the default quickstart's world, a held-out synthetic world (seed 31) and the MENOG sample,
the model fine-tuned from the shipped base, the base with no fine-tuning and the same steps from random weights, beside
every baseline (RTT median AE and CRPS by slice; completion; inverse search; how each reads its context), then the
change-detection and pretraining records they rest on. Run from the repository root after `runs/q4.txt`:
`python -m experiments.final.issue36 experiments/final/issue36.json`."""
import json, platform, subprocess, sys
from pathlib import Path

import numpy as np

from netlm.runlog import read_metrics

EXP = Path('experiments')
QUEUE = 'runs/q4.txt'
DATA = dict(quickstart=dict(dir='runs/fin_q', steps=191, what="the default quickstart's synthetic world (50 probes, 2 days, seed 0)"),
            synthetic=dict(dir='runs/fin_s31', steps=300, what='a synthetic world no experiment used (100 probes, 2 days, seed 31)'),
            menog=dict(dir='runs/fin_m', steps=600, what='the MENOG sample (real RIPE Atlas pings, IPv4, 90 probes)'))
SLICES = ('all', 'seen', 'unseen')


def load(path) -> dict:
    return json.loads(Path(path).read_text())


def rtt_table(metrics: dict) -> dict:
    "Median AE and CRPS with their intervals, by slice, of every method of one evaluation."
    out = {}
    for name, m in metrics['rtt'].items():
        row = dict(all=dict(median_ae_ms=m['median_ae_ms'], ci=m.get('median_ae_ci'), crps_ms=m['crps_ms'],
                            crps_ci=m.get('crps_ci'), n=m['n']))
        for s in ('seen', 'unseen'):
            if (b := m['by'].get(s)): row[s] = dict(median_ae_ms=b['median_ae_ms'], ci=b.get('median_ae_ci'),
                                                    crps_ms=b['crps_ms'], n=b['n'])
        out[name] = row
    return out


def questions(metrics: dict) -> dict:
    "Completion (top-1 by IP version, prefix and seen/unseen destination) and inverse search of one evaluation."
    ip, inv = metrics.get('ip') or {}, metrics.get('inverse') or {}
    comp = {}
    for v in ('ipv4', 'ipv6'):
        if not ip.get(v): continue
        part = ip[v]
        comp[v] = {s: {name: {p: r['top1'] for p, r in part[name].items()}
                       for name in ('model', 'model_alone', 'frequency_baseline') if name in part}
                   for s in ('all',)}
        for s in ('seen', 'unseen'):
            if part.get(s): comp[v][s] = {name: {p: r['top1'] for p, r in part[s][name].items()}
                                          for name in ('model', 'model_alone', 'frequency_baseline') if name in part[s]}
        comp[v]['queries'] = dict(all=part['queries'], seen=(part.get('seen') or {}).get('queries'),
                                  unseen=(part.get('unseen') or {}).get('queries'))
    methods = inv.get('methods') or {}
    return dict(completion=comp, inverse={k: ([v['within'], *v['ci']] if 'within' in v else [v['mean'], *v['ci']])
                                          for k, v in methods.items()} | dict(queries=inv.get('queries')))


def reading_summary(reading: dict) -> dict:
    "The reading curve (model / pair median by occurrences) and the single-occurrence copy probe."
    once = lambda f: reading['copy_probe']['factors'][f]['by_bucket'].get('1', {}).get('follow')
    return dict(curve={b['bucket']: dict(queries=b['queries'], probes=b['probes'], ratio=b['ratio'])
                       for b in reading['reading_curve']},
                copy_single_occurrence=[once('2'), once('0.5')],
                copy_all_seen=[reading['copy_probe']['factors'][f]['follow'] for f in ('2', '0.5')],
                loss=reading.get('loss'))


def train_summary(run) -> dict:
    recs = read_metrics(run)
    return dict(steps=recs[-1]['step'], real_tokens=int(sum(r['tokens'] for r in recs)),
                tokens_per_s_median=round(float(np.median([r['tokens_per_s'] for r in recs]))),
                train_seconds=round(recs[-1]['elapsed_s']))


def quickstart_runs(workdir, log='runs/times.log') -> list:
    """Every quickstart run in `workdir`, from the queue's timing log (`DATE SECONDS s: rc=N COMMAND`): its exit status
    and wall seconds. A quickstart run again in the same workdir resumes the trained run (no training) and evaluates."""
    runs = []
    for line in Path(log).read_text().splitlines():
        _, secs, _, rc, rest = line.split(' ', 4)
        if rest.startswith('netlm quickstart') and f'--workdir {workdir} ' in rest + ' ':
            runs.append(dict(rc=int(rc.removeprefix('rc=')), seconds=int(secs)))
    if not runs: raise ValueError(f'no quickstart in {workdir} in {log}')
    return runs


def data_set(name, spec) -> dict:
    W = Path(spec['dir'])
    paired = load(f'{W}_all/metrics.json')
    ft, base, scratch = load(W / 'run' / 'eval' / 'metrics.json'), load(f'{W}_base/metrics.json'), \
        load(f'{W}_scratch_eval/metrics.json')
    assert ft['protocol']['eval_split'] == paired['protocol']['eval_split'] == 'test'
    return dict(what=spec['what'], steps=spec['steps'], held_out=paired['protocol'].get('held_out'),
                protocol={k: paired['protocol'].get(k) for k in ('queries', 'successful_queries', 'test_probes',
                                                                   'seen_queries', 'n_context', 'split_by')},
                rtt=rtt_table(paired), versus=paired['versus'], base_versus=base['versus'],
                questions=dict(fine_tuned=questions(ft), base=questions(base), scratch=questions(scratch)),
                reading=dict(fine_tuned=reading_summary(load(W / 'run' / 'eval' / 'reading.json')),
                             base=reading_summary(load(f'{W}_base/reading.json'))),
                train=dict(fine_tuned=train_summary(W / 'run'), scratch=train_summary(f'{W}_scratch')),
                quickstart_runs=quickstart_runs(W))


def main(out_path):
    r12 = load(EXP / 'reading/rtt_prefix_bias_6k.json')['pretrain']
    c6, c4 = load(EXP / 'changes/changes_warmup.json')['test'], load(EXP / 'changes/changes_fresh_test.json')
    record = dict(
        name='issue36_final', issue=36, date='2026-12-01',
        what="The reading issue's closing evaluation: test probes of three data sets, each read once, with the shipped "
             'base (R12) and the default fine-tuning recipe; nothing was chosen on them',
        commands=[l for l in Path(QUEUE).read_text().splitlines() if l.strip()],
        commands_again=dict(command='netlm quickstart --workdir runs/fin_q --steps 191 --reading --no-progress',
                            why='its first run (rc=2) trained and evaluated, then stopped on the reading (the split name; '
                                'fixed in e080895); run again in the same workdir it resumed the trained run at step 191 '
                                'and evaluated it again, reading included. MENOG\'s quickstart was stopped by a restart of '
                                'the machine and run again from an empty workdir'),
        machine=dict(cpu=platform.processor() or platform.machine(), cores=2,
                     avx512='avx512f' in open('/proc/cpuinfo').read()),
        commit=subprocess.run(['git', 'rev-parse', 'HEAD'], capture_output=True, text=True).stdout.strip(),
        data={name: data_set(name, spec) for name, spec in DATA.items()},
        change_detection=dict(c6_seed13=c6, c4={k: c4[k] for k in ('sources', 'true_changes', 'model', 'pelt', 'model_minus_pelt_f1')},
                              source=['experiments/changes/changes_warmup.json (C6: the shipped detector, seed-13 world read once)',
                                      'experiments/changes/changes_fresh_test.json (C4: seed-12 world read once)']),
        pretraining=dict(source='experiments/reading/rtt_prefix_bias_6k.json (R12, the shipped base)',
                         command=r12['command'], real_tokens=r12['real_tokens'], minutes=r12['minutes'],
                         tokens_per_s_median=r12['tokens_per_s_median'], held_out_curve=r12['held_out_curve']),
        record='python -m experiments.final.issue36 experiments/final/issue36.json')
    Path(out_path).write_text(json.dumps(record, indent=1))
    for name, d in record['data'].items():
        print(name, {m: (round(v['all']['median_ae_ms'], 2), round(v.get('seen', {}).get('median_ae_ms', float('nan')), 2),
                         round(v.get('unseen', {}).get('median_ae_ms', float('nan')), 2), round(v['all']['crps_ms'], 2))
                     for m, v in d['rtt'].items()})


if __name__ == '__main__':
    main(sys.argv[1])
