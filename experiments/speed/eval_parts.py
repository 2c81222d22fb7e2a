"""The quickstart's evaluation of one trained run, its parts timed and XLA's compilations counted (for
experiments/speed/kept_chains.json and call_packing.json): `evaluate_run` with the quickstart's 200 completions and 100
inverse searches. From the repository root (before: with PYTHONPATH on a worktree of the older commit):
`python -m experiments.speed.eval_parts RUN ROWS 200 100`; the last line: the parts' seconds, the wall time, the
compilations and their seconds; the line before it: the prefix engine's calls (prefill, extend, suffix tokens) and
the compilations by function."""
import collections, sys, time

from jax._src import compiler

from netlm import decoding
from netlm.pipeline import evaluate_run

count = [0, 0.0]
by_name = collections.Counter()
_compile = compiler.backend_compile_and_load
decoders = []
_init = decoding.PrefixDecoder.__init__


def _counted(backend, module, *args, **kwargs):
    t0 = time.perf_counter(); out = _compile(backend, module, *args, **kwargs)
    count[0] += 1; count[1] += time.perf_counter() - t0
    by_name[str(module.operation.attributes['sym_name']).strip('"')] += 1
    return out


def _kept(self, *args, **kwargs):
    _init(self, *args, **kwargs); decoders.append(self)


def main(run, rows, ip_queries, inverse_queries):
    compiler.backend_compile_and_load = _counted           # every XLA compilation of the process passes here
    decoding.PrefixDecoder.__init__ = _kept                 # every prefix engine the evaluation makes, for its calls
    t0 = time.perf_counter()
    m = evaluate_run(run, rows, out_dir='/tmp/netlm-eval-parts', progress=False, ip_queries=int(ip_queries),
                     inverse_queries=int(inverse_queries))
    wall = round(time.perf_counter() - t0, 1)
    calls = {k: sum(d.calls[k] for d in decoders) for k in ('prefill', 'extend', 'tokens')}
    print('calls', calls, 'compiles_by_name', dict(by_name.most_common(4)))
    print('seconds', m['seconds'], 'wall', wall, 'compiles', count[0], 'compile_s', round(count[1], 1))


if __name__ == '__main__': main(*sys.argv[1:])
