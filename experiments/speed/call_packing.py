"""Build experiments/speed/call_packing.json: the prefix engine's call packing (nbs/22_decoding, after *The trunk
once*) in three variants against the code before them, on the 2-core machine: the quickstart's evaluation of one
trained run (`experiments/speed/eval_parts.py`: its parts' seconds, the engine's calls, XLA's compilations) and
`netlm bench predict --set probes=6 queries=90` (questions/s, each timed on a second pass).

The variants, each the commit named or the change described, measured in sequence with nothing else running
(except where `overlapped` says so):
- before (528d47a): `groups` trunks a call whatever their slots, trunks at their own length bucket;
- padded (1e1782d): as many trunks a call as `groups` x `suffixes` slots hold, trunks seen at 512 tokens or more,
  kept suffixes in 4 or all slots, and every last call padded to a full one unless the whole question has one trunk;
- pow4 (not committed): the final variant's last calls (1, 4, 16 ... trunks) with the padded variant's slots;
- final (the commit of this record's parent change): a trunk takes 1, 4, 8 or all slots (kept: 1, 4 or all), the
  last call 1, 4, 16 ... trunks.
The lines the commands print are kept under runs/ first: runs/pack_eval.log (before and padded, twice each, the
first pair while the FS record was being built beside it), runs/pack_eval3.log (pow4, final), runs/pack_bench_*.json.
From the repository root: `python -m experiments.speed.call_packing experiments/speed/call_packing.json`."""
import ast, json, sys
from pathlib import Path

from experiments.common import git
from experiments.speed.answers_cpu import RATES, cpu

COMMITS = dict(before='528d47a', padded='1e1782d', pow4=None, final='b7b7b77')
TAGS = dict(old='before', new='padded', new25='pow4', new3='final')
BENCH = dict(before='runs/pack_bench_before.json', padded='runs/pack_bench_after.json',
             pow4='runs/pack_bench_after25.json', final='runs/pack_bench_after3.json')
COMMANDS = dict(
    eval_parts='python experiments/speed/eval_parts.py runs/rb_q_ft runs/rb_q/rows 200 100 (before: from a worktree of '
               '528d47a with PYTHONPATH on it); runs/rb_q_ft is the FS record\'s seed-0 fine-tune on the quickstart\'s '
               'world (191 steps from the base), its test probes the quickstart\'s',
    bench='netlm bench predict --set probes=6 queries=90 (before: python -c "from netlm.cli import main; main()" from '
          'the worktree)')


def eval_runs() -> dict:
    "Each variant's evaluations in order: the parts' seconds, the wall time, compilations, the engine's calls."
    out, calls = {}, {}
    for log in ('runs/pack_eval.log', 'runs/pack_eval3.log'):
        for line in Path(log).read_text().splitlines():
            if line.startswith('PACK'): continue
            tag, kind, rest = line.split(' ', 2)
            name = TAGS[tag]
            if kind == 'calls':
                calls[name] = dict(engine=ast.literal_eval(rest[:rest.index(' compiles_by_name')]),
                                   compiles_by_name=ast.literal_eval(rest[rest.index('compiles_by_name') + 17:]))
                continue
            seconds = ast.literal_eval(rest[:rest.index(' wall')])
            words = rest[rest.index(' wall'):].split()
            out.setdefault(name, []).append(dict(seconds=seconds, wall_s=float(words[1]), compiles=int(words[3]),
                                                 compile_s=float(words[5]), **calls.pop(name)))
    out['before'][0]['overlapped'] = out['padded'][0]['overlapped'] = 'the FS record build (field losses) beside it'
    return out


def main(out):
    bench = {k: json.loads(Path(p).read_text()) for k, p in BENCH.items()}
    rates = {k: {q: round(b[f'{q}_queries_per_s'], 1) for q in RATES} for k, b in bench.items()}
    ev = eval_runs()
    clean = {k: next(r for r in reversed(v) if 'overlapped' not in r) for k, v in ev.items()}
    record = dict(
        what="The prefix engine's call packing: how many trunks and slots a call holds, the trunk length the calls "
             "see, the last call's padding; three variants against the code before them",
        date='2026-12-03', issue=66, machine=cpu(), commit=git('rev-parse', 'HEAD'), commits=COMMITS,
        commands=COMMANDS, eval_parts=ev, bench_rates=rates,
        bench_ratio={k: {q: round(rates[k][q] / rates['before'][q], 2) for q in RATES} for k in rates},
        summary={k: dict(eval_wall_s=r['wall_s'], rtt_part_s=r['seconds']['rtt'], ip_part_s=r['seconds']['ip'],
                         inverse_part_s=r['seconds']['inverse'], extend_calls=r['engine']['extend'],
                         extend_compiles=r['compiles_by_name'].get('jit_extend'), compiles=r['compiles'],
                         compile_s=r['compile_s']) for k, r in clean.items()})
    Path(out).write_text(json.dumps(record, indent=1) + '\n')
    for k, s in record['summary'].items(): print(k, s, record['bench_ratio'][k])


if __name__ == '__main__': main(*sys.argv[1:])
