"""Build the recall records from the runs their rules name: experiments/recall/baseline.json (RB, `baseline_rule.md`),
experiments/recall/reinit_dst.json (F9, `reinit_dst_rule.md`), experiments/recall/mix_screen.json (S1,
`mix_screen_rule.md`), experiments/recall/finetune_mix.json (F10, `finetune_mix_rule.md`) and
experiments/recall/seed_spread.json (FS, `seed_spread_rule.md`). From the repository root, after the runs:
`python -m experiments.recall.records baseline experiments/recall/baseline.json` (or `reinit_dst ...`,
`mix_screen ...`, `finetune_mix ...`, `seed_spread ...`)."""
import json, sys
from pathlib import Path

import numpy as np

from experiments.common import follow, git, load, load_eval, paired
from netlm.reading import field_losses, model_for_loss
from netlm.runlog import read_metrics

DATA = dict(q="the quickstart's world (50 probes, 2 days, seed 0; validation share 0.25)",
            f='a fresh world (100 probes, 2 days, seed 41; validation share 0.2)',
            m="MENOG's real probes (validation share 0.3)")
STEPS = dict(q=191, f=300, m=300)
METHODS = ('model', 'run scratch', 'run base', 'run ft', 'run c', 'pair_median', 'vivaldi', 'matrix_factorization', 'oracle')
FIELDS = ('loss', 'loss_src_ip', 'loss_dst_ip', 'loss_rtt', 'loss_timestamp', 'loss_structure')
slices = lambda q: dict(all=np.ones(len(q['ok']), bool), seen=q['seen'].astype(bool), unseen=~q['seen'].astype(bool))


def by_slice(r: dict) -> dict:
    "A method's median AE with its interval, overall and on seen and unseen pairs."
    rows = dict(all=r) | {s: r['by'][s] for s in ('seen', 'unseen') if s in r.get('by', {})}
    return {s: [round(x['median_ae_ms'], 3), *(round(c, 3) for c in x['median_ae_ci'])] for s, x in rows.items()}


def field_loss(run: str) -> dict:
    "Loss by field on the validation probes of the run's data (8 batches), from its last checkpoint."
    data = json.loads(Path(run, 'config.json').read_text())['data']
    model, seq_len = model_for_loss(run)
    by = field_losses(model, seq_len, data, 'val', max_batches=8)
    return dict({k: round(v, 4) for k, v in by['loss_by_field'].items()}, all=round(by['loss_nats_per_token'], 4),
                bits_per_measurement=round(by['bits_per_measurement'], 2))


def train_record(run: str) -> dict:
    log = read_metrics(run)
    return dict(steps=log[-1]['step'], seconds=round(log[-1]['elapsed_s']), last=dict({k: round(log[-1][k], 4)
                                                                                      for k in FIELDS}))


def completion_unseen(ip: dict | None) -> dict | None:
    "Top-1 of completing destinations the probe never measured, the model's and the frequency baseline's, by prefix."
    if not ip: return None
    return {v: dict(queries=ip[v]['unseen']['queries'],
                    model={p: round(x['top1'], 3) for p, x in ip[v]['unseen']['model'].items()},
                    frequency={p: round(x['top1'], 3) for p, x in ip[v]['unseen']['frequency_baseline'].items()})
            for v in ('ipv4', 'ipv6') if ip.get(v) and ip[v].get('unseen')}


def data_set(eval_dir: str, model: str, pairs: list[tuple[str, str, str]], runs: dict) -> dict:
    "One data set's evaluation: each method's median AE by slice, the paired ratios asked, the copy probe, the losses."
    ev, q = load_eval(eval_dir), load(eval_dir)
    rtt, protocol = ev['eval']['rtt'], ev['eval']['protocol']
    masks = slices(q)
    out = dict(eval_dir=eval_dir, model=model, probes=protocol['test_probes'], queries=protocol['queries'],
               slice_queries=protocol['slice_queries'],
               median_ae={m: by_slice(rtt[m]) for m in METHODS if m in rtt},
               paired={f'{a} / {b}, {s}': paired(q, f'median.{a}', f'median.{b}', masks[s]) for a, b, s in pairs})
    if 'reading' in ev:
        r = ev['reading']
        out['copy'] = dict(doubled=follow(r, '2'), halved=follow(r, '0.5'))
        out['reading_curve'] = r['reading_curve']
    out['completion_unseen'] = completion_unseen(ev['eval'].get('ip'))
    bits = ev['eval']['compression']['bits_per_measurement']
    out['bits_per_measurement'] = {k: round(bits[k], 2) for k in ('model', 'model_less_field_order', 'probe_rows+xz')
                                   if bits.get(k) is not None}
    out['field_loss_val'] = {name: field_loss(run) for name, run in runs.items()}
    out['train'] = {name: train_record(run) for name, run in runs.items()}
    return out


def copy_kept(copy: dict, control: dict, margin: float = 0.1) -> bool:
    "Whether the copy probe's factors are no further from 2 and 0.5 than the control's by more than `margin` each."
    return (abs(copy['doubled'] - 2) <= abs(control['doubled'] - 2) + margin and
            abs(copy['halved'] - 0.5) <= abs(control['halved'] - 0.5) + margin)


def judge(sets: dict, name: str = 'f9') -> list[dict]:
    """F9's four criteria (`reinit_dst_rule.md`, F10's too) for the candidate `name`, on the data sets that ran; `holds`
    is None where a data set the criterion needs is missing and those that ran do not decide it."""
    ratio = lambda d, s: sets[d]['paired'][f'model / run ft, {s}']['median_ae']
    have = lambda *ds: all(d in sets for d in ds)
    out = [dict(criterion='1: unseen pairs, point below 1 on all three, upper bound below 1 on one',
                value={d: ratio(d, 'unseen') for d in sets},
                holds=False if any(ratio(d, 'unseen')[0] >= 1 for d in sets) else
                (any(ratio(d, 'unseen')[2] < 1 for d in DATA) if have(*DATA) else None))]
    for n, s in ((2, 'seen'), (3, 'all')):
        out.append(dict(criterion=f'{n}: {s}, upper bound <= 1.10 on all three', value={d: ratio(d, s) for d in sets},
                        holds=False if any(ratio(d, s)[2] > 1.10 for d in sets) else (True if have(*DATA) else None)))
    control = json.loads(Path('experiments/recall/baseline.json').read_text())['sets']['m']['copy']
    copy = sets['m'].get('copy') if have('m') else None
    out.append(dict(criterion="4: MENOG's copy probe no further from 2 and 0.5 than the control's by more than 0.1",
                    value={name: copy, 'control': control},
                    holds=None if copy is None else copy_kept(copy, control)))
    return out


def pretrain_record(workdir: str) -> dict:
    "A pretraining run as `train_record` has it, with its real tokens and its last held-out worlds' losses by field."
    run = Path(workdir, 'run')
    held = read_metrics(run, 'held_out')
    return dict(train_record(run), tokens=int(sum(r['tokens'] for r in read_metrics(run))),
                held_out=dict(step=held[-1]['step'], **{k: round(held[-1][k], 4) for k in FIELDS}) if held else None)


def judge_screen(sets: dict, control_copy: dict) -> list[dict]:
    "S1's three criteria (`mix_screen_rule.md`), on both data sets."
    ratio = lambda d, s: sets[d]['paired'][f'model / run c, {s}']['median_ae']
    return [dict(criterion='1: unseen pairs, M / C point estimate below 1 on both', value={d: ratio(d, 'unseen') for d in sets},
                 holds=all(ratio(d, 'unseen')[0] < 1 for d in sets)),
            dict(criterion='2: seen pairs, M / C upper bound <= 1.10 on both', value={d: ratio(d, 'seen') for d in sets},
                 holds=all(ratio(d, 'seen')[2] <= 1.10 for d in sets)),
            dict(criterion="3: M's copy no further from 2 and 0.5 than C's by more than 0.1, on both",
                 value={d: dict(m=sets[d]['copy'], c=control_copy[d]) for d in sets},
                 holds=all(copy_kept(sets[d]['copy'], control_copy[d]) for d in sets))]


def mix_screen() -> dict:
    "S1: both bases' pretraining, each data set's evaluation of M's fine-tune (against C's and scratch) and C's own."
    pairs = [('model', 'run c', 'unseen'), ('model', 'run c', 'seen'), ('model', 'run c', 'all'),
             ('model', 'run scratch', 'unseen'), ('run c', 'run scratch', 'unseen'), ('model', 'pair_median', 'seen'),
             ('run c', 'pair_median', 'seen')]
    sets = {d: data_set(f'runs/sc_{d}_r05_eval', f'runs/sc_{d}_r05', pairs,
                        dict(m=f'runs/sc_{d}_r05', c=f'runs/sc_{d}_r10')) for d in ('f', 'm')}
    controls = {d: data_set(f'runs/sc_{d}_r10_eval', f'runs/sc_{d}_r10', [('model', 'run scratch', 'unseen')], {})
                for d in ('f', 'm')}
    control_copy = {d: controls[d]['copy'] for d in controls}
    pretrain = {x: dict(pretrain_record(w), held_out_8=field_loss(f'{w}/run'))
                for x, w in (('c', 'runs/sc_r10'), ('m', 'runs/sc_r05'))}
    return dict(pretrain=pretrain, sets=sets,
                controls=controls, criteria=judge_screen(sets, control_copy))


def seed_spread() -> dict:
    """FS: the default fine-tune with seed 1 against seed 0 on each data set that ran; the seed-0 run's last losses
    beside RB's (the same command: equal if training is deterministic, to the float noise of XLA's threads if not);
    F9's, S1's and F10's ratios beside the spread."""
    pairs = [('model', 'run ft', s) for s in ('unseen', 'seen', 'all')]
    sets = {d: data_set(f'runs/rb_{d}_ft1_eval', f'runs/rb_{d}_ft1', pairs, dict(ft1=f'runs/rb_{d}_ft1', ft=f'runs/rb_{d}_ft'))
            for d in DATA if Path(f'runs/rb_{d}_ft1_eval', 'metrics.json').is_file()}
    rb = json.loads(Path('experiments/recall/baseline.json').read_text())['sets']
    gap = lambda a, b: round(max(abs(a[k] - b[k]) for k in a), 4)     # the records keep four decimals
    rerun = {d: dict(rb=rb[d]['train']['ft']['last'], now=sets[d]['train']['ft']['last'],
                     max_abs_difference=gap(rb[d]['train']['ft']['last'], sets[d]['train']['ft']['last']),
                     dst_ip_val=dict(rb=rb[d]['field_loss_val']['ft']['dst_ip'], now=sets[d]['field_loss_val']['ft']['dst_ip']))
             for d in sets}
    spread = {d: {s: sets[d]['paired'][f'model / run ft, {s}']['median_ae'] for s in ('unseen', 'seen', 'all')} for d in sets}
    earlier = {}
    for name, file, key in (('F9', 'reinit_dst', 'model / run ft'), ('F10', 'finetune_mix', 'model / run ft'),
                            ('S1', 'mix_screen', 'model / run c')):
        got = json.loads(Path(f'experiments/recall/{file}.json').read_text())['sets']
        earlier[name] = {d: {s: dict(ratio=got[d]['paired'][f'{key}, {s}']['median_ae'],
                                     difference=differs(got[d]['paired'][f'{key}, {s}']['median_ae'], spread[d][s][0]))
                             for s in ('unseen', 'seen', 'all') if f'{key}, {s}' in got[d]['paired']}
                         for d in got if d in spread}
    return dict(sets=sets, rerun=rerun, spread=spread, earlier=earlier)


def differs(ratio: list, seed_point: float) -> bool:
    """FS's test for later rules: a paired ratio [point, low, high] counts as a difference when its interval excludes
    1 and its point lies further from 1 than the seed pair's point (both on a log scale)."""
    point, low, high = ratio
    return bool((low > 1 or high < 1) and abs(np.log(point)) > abs(np.log(seed_point)))


def main(which, out_path):
    if which == 'seed_spread':
        record = dict(rule=Path('experiments/recall/seed_spread_rule.md').read_text(), data=DATA, steps=STEPS,
                      commit=git('rev-parse', 'HEAD'), **seed_spread())
        record['missing'] = [d for d in DATA if d not in record['sets']]
        Path(out_path).write_text(json.dumps(record, indent=1, default=float) + '\n')
        for d, s in record['spread'].items(): print(d, s, record['rerun'][d]['max_abs_difference'], record['sets'][d].get('copy'))
        return
    if which == 'mix_screen':
        record = dict(rule=Path('experiments/recall/mix_screen_rule.md').read_text(), data={d: DATA[d] for d in 'fm'},
                      steps=dict(pretrain=1200, f=300, m=300), commit=git('rev-parse', 'HEAD'), **mix_screen())
        Path(out_path).write_text(json.dumps(record, indent=1, default=float) + '\n')
        for c in record['criteria']: print(c['criterion'], c['value'], c['holds'])
        return
    if which == 'baseline':
        pairs = [('model', 'run scratch', 'unseen'), ('model', 'run scratch', 'seen'), ('model', 'run scratch', 'all'),
                 ('model', 'pair_median', 'seen'), ('model', 'pair_median', 'all'), ('model', 'run base', 'unseen')]
        sets = {d: data_set(f'runs/rb_{d}_eval', f'runs/rb_{d}_ft', pairs,
                            dict(ft=f'runs/rb_{d}_ft', scratch=f'runs/rb_{d}_scratch')) for d in DATA}
        rule = 'experiments/recall/baseline_rule.md'
    else:                                          # a fine-tune against the default one: F9 or F10
        name = dict(reinit_dst='f9', finetune_mix='f10')[which]
        pairs = [('model', 'run ft', 'unseen'), ('model', 'run ft', 'seen'), ('model', 'run ft', 'all'),
                 ('model', 'run scratch', 'unseen'), ('model', 'pair_median', 'seen')]
        sets = {d: data_set(f'runs/rb_{d}_{name}_eval', f'runs/rb_{d}_{name}', pairs, {name: f'runs/rb_{d}_{name}'})
                for d in DATA if Path(f'runs/rb_{d}_{name}_eval', 'metrics.json').is_file()}
        rule = f'experiments/recall/{which}_rule.md'
    record = dict(rule=Path(rule).read_text(), data=DATA, steps=STEPS, commit=git('rev-parse', 'HEAD'), sets=sets,
                  missing=[d for d in DATA if d not in sets])
    if which != 'baseline': record['criteria'] = judge(sets, name)
    Path(out_path).write_text(json.dumps(record, indent=1, default=float) + '\n')
    for d, s in sets.items():
        print(d, s['probes'], 'probes', {k: [round(x, 3) for x in v['median_ae']] for k, v in s['paired'].items()},
              s.get('copy'))


if __name__ == '__main__': main(*sys.argv[1:])
