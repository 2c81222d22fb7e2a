"""Build experiments/questions/completion_copy.json (Q1: IP completion mixed with the context's destination shares,
the rule beside it) from the shipped base and three probe-row directories (commands in the record); run from the
repository root: `python -m experiments.questions.completion_copy experiments/questions/completion_copy.json`
(about 10 minutes for validation on two CPU cores, 10 more for the test world when the rule lets it be read)."""
import json, platform, subprocess, sys, time
import numpy as np
from netlm.evaluate import ip_metrics, make_protocol
from netlm.infer import Predictor
from netlm.metrics import bootstrap, clean_json
from netlm.rows import load_rows, rows_to_measurements, split_key

GRID = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99)
VALIDATION = dict(synthetic='runs/s7/rows', menog='runs/menog_f2/rows')
TEST = 'runs/s21/rows'
PREFIXES = {4: (8, 16, 24), 6: (16, 32, 48)}


def ask(predictor, data_dir: str, split: str, copies: dict, n_queries: int = 500) -> dict:
    "`netlm eval`'s IP completion (its protocol, seed 0) on `split` with the named rankings, every ask kept."
    train = rows_to_measurements(load_rows(data_dir, 'train', None, 0))
    rows = load_rows(data_dir, split, None, 0)
    proto = make_protocol(rows_to_measurements(rows), 30, 10, 10, 2000, 0)
    clock = time.perf_counter()
    ip = ip_metrics(predictor, proto.queries, proto.context, n_queries=n_queries, history=train, copies=copies,
                    per_ask=True)
    per = ip.pop('per_ask')
    probe_of = {r.src: split_key(r) for r in rows}                   # intervals over physical probes
    per['unit'] = [str(probe_of.get(s, s)) for s in per['src']]
    return dict(data=data_dir, split=split, seconds=round(time.perf_counter() - clock, 1), ip=ip, per_ask=per)


def hits(per: dict, name: str, mask=None) -> np.ndarray:
    "1 where a ranking's top-1 is the truth, per ask (of `mask`)."
    top1 = (np.asarray(per['rank'][name]) < 1).astype(np.float64)
    return top1 if mask is None else top1[mask]


def paired(per: dict, a: str, b: str, mask=None) -> dict:
    "Top-1 of `a` minus `b` on the same asks, with a 95% interval over probes."
    m = np.ones(len(per['unit']), bool) if mask is None else mask
    d = hits(per, a, m) - hits(per, b, m)
    return dict(mean=float(d.mean()) if len(d) else None, asks=int(m.sum()),
                ci=bootstrap(d, np.asarray(per['unit'])[m], 'mean', 1000, 0))


def by_prefix(per: dict, a: str, b: str) -> dict:
    "`paired(a, b)` at every IP version and prefix length, all asks and seen / unseen destinations apart."
    v, bits, seen = (np.asarray(per[k]) for k in ('version', 'prefix_bits', 'seen'))
    return {f'ipv{ver}/{n}': {part: paired(per, a, b, (v == ver) & (bits == n) & m)
                              for part, m in (('all', True), ('seen', seen), ('unseen', ~seen))}
            for ver, ns in PREFIXES.items() for n in ns if ((v == ver) & (bits == n)).any()}


def git(*args) -> str: return subprocess.run(['git', *args], capture_output=True, text=True).stdout.strip()


if __name__ == '__main__':
    predictor = Predictor.from_pretrained('base')
    names = {f'copy={c:g}': c for c in GRID}
    val = {k: ask(predictor, d, 'val', names) for k, d in VALIDATION.items()}
    mean_top1 = {n: float(np.mean([hits(r['per_ask'], n).mean() for r in val.values()])) for n in names}
    chosen = max(names, key=lambda n: (mean_top1[n], -names[n]))           # a tie: the smaller weight
    against_alone = {k: paired(r['per_ask'], chosen, 'copy=0') for k, r in val.items()}
    passes = all(p['ci'][0] > 0 for p in against_alone.values())
    record = dict(
        name='Q1', date='2026-11-29', issue=36, rule='experiments/questions/completion_copy_rule.md',
        what="IP completion's probability mixed with the context's destination shares (weight copy), the shipped base",
        commands=['netlm synth W7 --probes 50 --days 2 --seed 7',
                  'netlm preprocess W7/measurements.parquet runs/s7/rows --test-fraction 0.2 --val-fraction 0.2',
                  'netlm ingest menog_ping_results_dev.jsonl.gz --out M/measurements.parquet',
                  'netlm preprocess M/measurements.parquet runs/menog_f2/rows --test-fraction 0.2 --val-fraction 0.4',
                  'netlm synth W21 --probes 50 --days 2 --seed 21',
                  'netlm preprocess W21/measurements.parquet runs/s21/rows --test-fraction 0.2 --val-fraction 0.2',
                  'python -m experiments.questions.completion_copy experiments/questions/completion_copy.json'],
        machine=dict(cpu=platform.processor() or platform.machine(), cores=2), commit=git('rev-parse', 'HEAD'),
        grid=list(GRID),
        validation=dict(mean_top1=mean_top1, chosen=chosen, copy=names[chosen], chosen_minus_alone=against_alone,
                        **{k: dict(seconds=r['seconds'], ip=r['ip'],
                                   top1={n: float(hits(r['per_ask'], n).mean())
                                         for n in [*names, 'frequency_baseline']},
                                   chosen_minus_frequency=by_prefix(r['per_ask'], chosen, 'frequency_baseline'))
                           for k, r in val.items()}),
        passes=passes)
    if passes:                                       # a world no experiment has used, read once
        t = ask(predictor, TEST, 'test', {'model': names[chosen], 'model_alone': 0.0})
        per = t['per_ask']
        record['test'] = dict(seconds=t['seconds'], ip=t['ip'],
                              top1={n: float(hits(per, n).mean())
                                    for n in ('model', 'model_alone', 'frequency_baseline')},
                              model_minus_alone=paired(per, 'model', 'model_alone'),
                              model_minus_frequency=by_prefix(per, 'model', 'frequency_baseline'))
    json.dump(clean_json(record), open(sys.argv[1], 'w'), indent=1)
    print(json.dumps(clean_json({k: v for k, v in record['validation'].items() if k in ('mean_top1', 'chosen',
                                                                                       'chosen_minus_alone')})))
    print(json.dumps(clean_json(record.get('test', {}).get('top1'))))
