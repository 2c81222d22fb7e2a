"""Build experiments/speed/attention_parts.json: the prefix engine's attention without concatenated scores and with a
group's queries as one matrix on its prefix (nbs/14_model, `prefix_attention`), and a call's empty trunk slots left
zeros (nbs/22_decoding), against the commit before (8e39cfd); beside them a variant not kept (the kept keys and values
padded to 16, 32 or 64 columns instead of the suffix's length). On the 2-core machine, nothing else running:
- questions/s: `NETLM_COMPILE_CACHE=0 python experiments/speed/question_passes.py [probes=6 queries=90]`, three
  processes per arm and size, passes 2-5 of each (runs/fa2_before_*, runs/fa3_after_*, runs/fa2_after_* for the
  variant); the median over those 12 passes;
- the quickstart's evaluation of one run, cold (no compile cache): `NETLM_COMPILE_CACHE=0 python -m
  experiments.speed.eval_parts runs/rb_q_ft runs/rb_q/rows 200 100` (runs/fa_eval_{before,after,variant}.txt);
- one RTT call's time by part (1,024 new tokens, 4 trunks x 16 slots x 16 tokens on 512-token prefixes, kept starts of
  64 columns): `python experiments/speed/rtt_call_parts.py` on a worktree of 8e39cfd (the old attention), its printed
  numbers in `DECOMPOSITION`; the new attention's 49.0 ms the same call timed after the change.
From the repository root: `python -m experiments.speed.attention_parts experiments/speed/attention_parts.json`."""
import ast, glob, json, sys
from pathlib import Path

import numpy as np

from experiments.common import git
from experiments.speed.answers_cpu import cpu

QUESTIONS = ('rtt', 'rank', 'completion', 'inverse')
RUNS = dict(before='runs/fa2_before_{}_*.json', after='runs/fa3_after_{}_*.json', variant='runs/fa2_after_{}_*.json')
SIZES = dict(default='bench_predict() defaults: 12 probes, up to 600 RTT questions (505 asked)',
             small='probes=6 queries=90 (70 RTT questions)')
# ms per call, the old attention (concatenated scores), 20 calls each
DECOMPOSITION = {'the whole call': 60.2, 'without the RTT bias': 56.1, 'without the prefix': 25.5,
                 "the suffix's own tokens only, no bias": 14.5, 'no attention (projections, MLP, head)': 12.4,
                 'the whole call, the new attention': 49.0}


def passes(pattern: str) -> dict:
    runs = [json.loads(Path(f).read_text()) for f in sorted(glob.glob(pattern))]
    return {q: sorted(x for r in runs for x in r[str(i)][1:]) for i, q in enumerate(QUESTIONS)}, len(runs)


def eval_line(path: str) -> dict:
    line = [l for l in Path(path).read_text().splitlines() if l.startswith('seconds ')][-1]
    parts, rest = line[len('seconds '):].split(' wall ')
    wall, _, compiles, _, compile_s = rest.split()
    calls = [l for l in Path(path).read_text().splitlines() if l.startswith('calls ')][-1]
    return dict(parts=ast.literal_eval(parts), wall_s=float(wall), compiles=int(compiles), compile_s=float(compile_s),
                extend_compiles=ast.literal_eval(calls.split('compiles_by_name ')[1])['jit_extend'])


def main(out):
    rates = {}
    for size in SIZES:
        rates[size] = {}
        for arm, pattern in RUNS.items():
            p, n = passes(pattern.format(size))
            rates[size][arm] = dict(processes=n, median={q: round(float(np.median(v)), 1) for q, v in p.items()},
                                    range={q: [v[0], v[-1]] for q, v in p.items()})
        for arm in ('after', 'variant'):
            rates[size][f'{arm} / before'] = {q: round(rates[size][arm]['median'][q] / rates[size]['before']['median'][q], 2)
                                              for q in QUESTIONS}
    evals = {arm: eval_line(f'runs/fa_eval_{arm}.txt') for arm in ('before', 'after', 'variant')}
    record = dict(what="The prefix engine's attention over its parts without concatenating their scores, a group's "
                       "queries as one matrix on its prefix, empty trunk slots left zeros; against the commit before, "
                       "with a variant not kept", date='2026-12-03', issue=66, machine=cpu(), before='8e39cfd',
                  commit=git('rev-parse', 'HEAD'), sizes=SIZES, questions_per_s=rates, evaluation_cold=evals,
                  rtt_call_ms=DECOMPOSITION,
                  decision="kept: the attention and the zero slots (no new shape). Not kept: the kept keys padded to "
                           "16/32/64 columns: 1.1-1.2x more on ranking, completion and inverse when compiled, but 15 "
                           "more extend shapes cost the cold evaluation 15 s",
                  record='python -m experiments.speed.attention_parts experiments/speed/attention_parts.json')
    Path(out).write_text(json.dumps(record, indent=1) + '\n')
    for size in SIZES: print(size, rates[size]['after / before'], rates[size]['variant / before'])
    print({a: (e['wall_s'], e['compiles'], e['extend_compiles']) for a, e in evals.items()})


if __name__ == '__main__': main(*sys.argv[1:])
