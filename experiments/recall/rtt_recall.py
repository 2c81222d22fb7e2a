"""Build experiments/recall/rtt_recall.json (RR, `rtt_recall_rule.md`): the loss per RTT byte on destinations new to
the context and on those it holds, for the shipped base, the default fine-tune (two seeds) and scratch (two seeds) on
RB's validation probes, paired on the same bytes. From the repository root, after the runs:
`python -m experiments.recall.rtt_recall experiments/recall/rtt_recall.json`."""
import json, sys, time
from pathlib import Path

from experiments.common import git
from experiments.recall.records import DATA, STEPS
from netlm.reading import model_for_loss
from netlm.recall import rtt_recall

RULE = 'experiments/recall/rtt_recall_rule.md'
RUNS = dict(ft='runs/rb_{}_ft', ft1='runs/rb_{}_ft1', scratch='runs/rb_{}_scratch', scratch1='runs/rb_{}_scratch1')
PAIRS = (('ft1', 'ft'), ('scratch1', 'scratch'), ('scratch', 'ft'), ('base', 'ft'))   # (a, b): a - b, paired
WHERE = ('new_all', 'new_first', 'in_context_all', 'in_context_first')


def rounded(x):
    if isinstance(x, float): return round(x, 4)
    if isinstance(x, dict): return {k: rounded(v) for k, v in x.items()}
    if isinstance(x, list): return [rounded(v) for v in x]
    return x


def data_set(d: str) -> dict:
    specs = {name: run.format(d) for name, run in RUNS.items()} | dict(base='base')
    models = {name: model_for_loss(spec) for name, spec in specs.items()}
    data = json.loads(Path(specs['ft'], 'config.json').read_text())['data']
    each = rtt_recall(models, data, 'val')                         # every model on the same bytes; differences from ft
    out = dict(models=specs, data=data, batches=each['batches'], bytes=each['bytes'], contexts=each['contexts'],
               sources=each['sources'])
    out['nats'] = {w: dict(bytes=each[w]['bytes'], contexts=each[w]['contexts'], sources=each[w]['sources'],
                           **{n: dict(nats=each[w][n]['nats'], ci=each[w][n]['ci']) for n in specs})
                   for w in WHERE if each[w]}
    out['paired'] = {}
    for a, b in PAIRS:
        r = each if b == 'ft' else rtt_recall({b: models[b], a: models[a]}, data, 'val')
        out['paired'][f'{a} - {b}'] = {w: r[w][a][f'minus_{b}'] for w in WHERE if r[w]}
    return rounded(out)


def answers(sets: dict) -> dict:
    "The rule's three questions, answered from the numbers."
    new = lambda d, p: sets[d]['paired'][p]['new_all']
    ctx = lambda d, n: sets[d]['nats']['in_context_all'][n]['nats']
    usable = {d: abs(new(d, 'ft1 - ft')['nats']) < abs(new(d, 'scratch - ft')['nats']) / 4 for d in sets}
    def verdict(d):
        g, s = new(d, 'scratch - ft'), abs(new(d, 'ft1 - ft')['nats'])
        lo, hi = g['ci']
        if hi < 0 and -g['nats'] > s: return 'scratch recalls more'
        if lo > 0 and g['nats'] > s: return 'the fine-tune recalls more'
        return 'no difference'
    return dict(q1_usable=dict(by_set=usable, all=all(usable.values())),
                q2_scratch_vs_ft_new={d: verdict(d) for d in sets},
                q3_ft_reads={d: ctx(d, 'ft') < ctx(d, 'scratch') for d in sets})


def main(out_path):
    start = time.time()
    sets = {d: data_set(d) for d in DATA}
    record = dict(name='RR', what='the loss per RTT byte on destinations new to the context (recall) and on those it '
                                  'holds (reading), for the base, the default fine-tune and scratch, two seeds each, '
                                  "on RB's validation probes, paired on the same bytes",
                  date=time.strftime('%Y-%m-%d'), issue=64, rule=RULE, data=DATA, steps=STEPS, commit=git('rev-parse', 'HEAD'),
                  sets=sets, answers=answers(sets), seconds=round(time.time() - start),
                  record='python -m experiments.recall.rtt_recall experiments/recall/rtt_recall.json')
    Path(out_path).write_text(json.dumps(record, indent=1) + '\n')
    for d, s in sets.items():
        print(d, {w: {n: round(v['nats'], 3) for n, v in s['nats'][w].items() if isinstance(v, dict)} for w in ('new_all', 'in_context_all')})
        print('  ', {p: (v['new_all']['nats'], v['new_all']['ci']) for p, v in s['paired'].items()})
    print(json.dumps(record['answers'], indent=1))


if __name__ == '__main__': main(sys.argv[1])
