"""Build experiments/reading/mixed_jitter_6k_cpu.json (R17c: R17 trained on the CPU by its rule's own command) from the
runs and evaluations the rule and its second addendum name; run from the repository root after them:
`python -m experiments.reading.mixed_jitter_6k_cpu experiments/reading/mixed_jitter_6k_cpu.json`."""
import json, platform, re, subprocess, sys
from pathlib import Path

import numpy as np

from netlm.runlog import read_metrics
from experiments.common import load_eval   # moved there for R12c

RULE = 'experiments/reading/mixed_jitter_6k_rule.md'
PRETRAIN = ('netlm pretrain --workdir runs/pt_mix6k --worlds 128 --val-worlds 8 --steps 6000 --jitter 0.2,1 '
            'sampler.relabel_dst=1.0 model.rtt_prefix_bias=true')
DATA = dict(
    menog='netlm ingest menog_ping_results_dev.jsonl.gz --out runs/menog_ft/measurements.parquet; netlm preprocess '
          'runs/menog_ft/measurements.parquet runs/menog_c13/rows --test-fraction 0.2 --val-fraction 0.7',
    starlink='netlm ingest msm52764390_ping.json --out runs/starlink/m.parquet; netlm preprocess runs/starlink/m.parquet '
             'runs/starlink/rows --test-fraction 0.2 --val-fraction 0.6',
    s7='netlm synth runs/s7/world --probes 50 --days 2 --seed 7; netlm preprocess runs/s7/world/measurements.parquet '
       'runs/s7/rows --test-fraction 0.2 --val-fraction 0.2')
QUEUE = 'runs/q1.txt'          # the evaluations, in the order they ran (runs/times.log has each one's seconds)
EVALS = dict(menog_zero_shot='runs/r17c_menog_eval', starlink_zero_shot='runs/r17c_starlink_eval',
             synthetic_zero_shot='runs/r17c_s7_eval', synthetic_finetuned='runs/s7_ft_r17c_eval')
R12_COMPLETION = dict(menog='runs/r12_menog_completion', s7='runs/r12_s7_completion')
PREFIXES = ('/8', '/16', '/24')




def pretrain_record(W=Path('runs/pt_mix6k')) -> dict:
    "The pretraining: tokens, speed, minutes, the export's digest and the held-out worlds' loss curve."
    train = read_metrics(W / 'run')
    fields = ('loss', 'loss_src_ip', 'loss_dst_ip', 'loss_rtt', 'loss_timestamp', 'loss_structure')
    curve = lambda recs: [dict(step=r['step'], **{k: round(r[k], 4) for k in fields}) for r in recs]
    summary = next(l for l in Path('runs/logs/pt_mix6k.log').read_text().splitlines() if l.startswith('netlm pretrain:'))
    import hashlib
    return dict(command=PRETRAIN, how_run='on the 2 CPU cores of this machine, nothing else running until its last step',
                steps=train[-1]['step'], real_tokens=int(sum(r['tokens'] for r in train)),
                tokens_per_s_median=round(float(np.median([r['tokens_per_s'] for r in train]))),
                mfu_median=round(float(np.median([r['mfu'] for r in train])), 4),
                train_seconds=round(train[-1]['elapsed_s']),
                minutes=float(re.search(r'([\d.]+) minutes in all', summary)[1]),
                manifest_sha256=hashlib.sha256(Path(W, 'model', 'manifest.json').read_bytes()).hexdigest(),
                held_out_curve=curve(read_metrics(W / 'run', 'held_out')), train_curve=curve(train[4::5]),
                log_line=summary)


def against_r17g(W=Path('runs/pt_mix6k'), gpu=Path('experiments/gpu/h100_2026-11-27_pretrain_r17/metrics.jsonl')):
    "R17c's log beside R17g's (the same command on an H100): the same batches (real tokens per logged step), the losses."
    g = {(r['step'], r['split']): r for r in map(json.loads, gpu.read_text().splitlines())}
    c = {(r['step'], r['split']): r for r in read_metrics(W / 'run', None)}
    both = sorted(set(g) & set(c))
    return dict(logged_steps_compared=len(both), tokens_equal=all(g[k]['tokens'] == c[k]['tokens'] for k in both),
                loss_step_50=[c[(50, 'train')]['loss'], g[(50, 'train')]['loss']],
                held_out_end=[c[both[-1]]['loss'], g[both[-1]]['loss']] if both[-1][1] != 'train' else None)


def seen_completion(ip: dict, ranking='model_alone') -> dict:
    "Seen IPv4 destinations' completion top-1 at each prefix, for one ranking ('model_alone': the model, no cache)."
    return {p: ip['ipv4']['seen'][ranking][p]['top1'] for p in PREFIXES}


def judge(r: dict, r12_ip: dict) -> dict:
    "The rule's seven criteria, R17c against R12 (`run r12`), as its second addendum reads them."
    vs = lambda part, who='run r12': r[part]['eval']['versus'][who]
    follow = lambda f: r['menog_zero_shot']['reading']['copy_probe']['factors'][f]['by_bucket']['1']['follow']
    mine = {k: seen_completion(r[p]['eval']['ip']) for k, p in (('s7', 'synthetic_zero_shot'),
                                                                ('menog', 'menog_zero_shot'))}
    theirs = {k: seen_completion(ip) for k, ip in r12_ip.items()}
    checks = {
        '1 MENOG seen R17c/R12: upper bound < 1.0': (v := vs('menog_zero_shot')['seen']['median_ae'], v[2] < 1.0),
        '2 MENOG overall R17c/R12 median AE and CRPS: upper bounds <= 1.10':
            (v := [vs('menog_zero_shot')['all']['median_ae'], vs('menog_zero_shot')['all']['crps']],
             v[0][2] <= 1.10 and v[1][2] <= 1.10),
        '3 Starlink R17c/R12 CRPS upper bound <= 1.02 and median AE upper bound <= 1.10':
            (v := [vs('starlink_zero_shot')['all']['crps'], vs('starlink_zero_shot')['all']['median_ae']],
             v[0][2] <= 1.02 and v[1][2] <= 1.10),
        '4 seed-7 overall R17c/R12: upper bound <= 1.10': (v := vs('synthetic_zero_shot')['all']['median_ae'],
                                                          v[2] <= 1.10),
        '5 seen IPv4 completion top-1, the model alone, >= R12\'s - 0.05 at /8, /16, /24 (seed-7, MENOG)':
            (v := [{p: [mine[k][p], theirs[k][p]] for p in PREFIXES} for k in ('s7', 'menog')],
             all(a >= b - 0.05 for part in v for a, b in part.values())),
        '6 MENOG single-occurrence copy >= 1.9x and <= 0.53x': (v := [follow('2'), follow('0.5')],
                                                               v[0] >= 1.9 and v[1] <= 0.53),
        "7 fine-tuned R17c/R12's fine-tune (seed-7, 191 steps): upper bound <= 1.25":
            (v := vs('synthetic_finetuned', 'run r12ft')['all']['median_ae'], v[2] <= 1.25)}
    return {k: dict(value=v, passed=bool(ok)) for k, (v, ok) in checks.items()}


def main(out_path):
    r = {part: load_eval(path) for part, path in EVALS.items()}
    r12_ip = {k: json.loads(Path(p, 'metrics.json').read_text())['ip'] for k, p in R12_COMPLETION.items()}
    checks = judge(r, r12_ip)
    ship = all(c['passed'] for c in checks.values())
    r17g = json.loads(Path('experiments/reading/mixed_jitter_6k.json').read_text())
    record = dict(
        name='R17c', what="R17 (R12's recipe on worlds steady and jittery in turn, --jitter 0.2,1) trained on the CPU by its "
                          "rule's own command and judged by the rule's seven criteria against the shipped R12; validation "
                          'probes only', date='2026-12-01', issue=36, rule=RULE,
        machine=dict(cpu=platform.processor() or platform.machine(), cores=2,
                     avx512='avx512f' in open('/proc/cpuinfo').read()),
        commit=subprocess.run(['git', 'rev-parse', 'HEAD'], capture_output=True, text=True).stdout.strip(),
        pretrain=pretrain_record(), against_r17g=against_r17g(), data=DATA,
        commands=[l for l in Path(QUEUE).read_text().splitlines() if l.strip()],
        **r, r12_completion=r12_ip,
        decision=dict(checks=checks, complete=True, ship=ship),
        r17g_checks=r17g['decision']['checks'], r17g_pretrain_end=r17g['pretrain']['held_out_curve'][-1],
        record='python -m experiments.reading.mixed_jitter_6k_cpu experiments/reading/mixed_jitter_6k_cpu.json')
    Path(out_path).write_text(json.dumps(record, indent=1))
    for k, c in checks.items(): print(('holds ' if c['passed'] else 'FAILS ') + k, c['value'])
    print('ship' if ship else 'not shipped')


if __name__ == '__main__':
    main(sys.argv[1])
