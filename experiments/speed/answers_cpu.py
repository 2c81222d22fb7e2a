"""Build experiments/speed/answers_cpu.json: answering speed and the first command's time on the 2-core machine, from
the outputs of the commands it lists (run first, on an idle machine, in this order; the JSON lines they print kept
under runs/). From the repository root: `python -m experiments.speed.answers_cpu experiments/speed/answers_cpu.json`."""
import json, os, platform, re, sys
from pathlib import Path

from experiments.common import git

COMMANDS = dict(
    quickstart='git clone REPO /tmp/qs && cd /tmp/qs && /usr/bin/time -v ./scripts/quickstart --workdir /tmp/qs_work '
               '> runs/qs_fresh_clone.log 2>&1 (eval metrics copied to runs/qs_fresh_clone_metrics.json)',
    predict_tree='netlm bench predict --set engine=tree probes=6 queries=90 (last line: runs/bench_predict_tree.json; '
                 'again later: runs/bench_predict_tree_2.json)',
    predict_prefix='netlm bench predict --set engine=prefix probes=6 queries=90 (runs/bench_predict_prefix.json, '
                   'runs/bench_predict_prefix_2.json)',
    serve='netlm bench serve --set max_batch=1 (runs/bench_serve_b1.json: a model call per request, the server as it '
          'is) and --set max_batch=32 (runs/bench_serve_b32.json: the requests waiting answered in one call), both at '
          'commit 7a0fe2c, where the demo had the batching; it was reverted after this measurement')
RATES = ('rtt', 'rank', 'completion', 'inverse')


def cpu() -> dict:
    text = Path('/proc/cpuinfo').read_text()
    model = re.search(r'model name\s*:\s*(.*)', text)
    return dict(model=model.group(1).strip() if model else platform.processor(), cores=os.cpu_count(),
                vector=sorted(set(re.findall(r'\b(avx\w*)', text))))


def quickstart(log: str, metrics: str) -> dict:
    text = Path(log).read_text(errors='replace')
    h, m, s = re.search(r'Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)', text).groups()
    done = re.search(r'netlm quickstart: done in ([\d.]+) minutes; median RTT error: model ([\d.]+) ms, best baseline '
                     r'\((\w+)\) ([\d.]+) ms', text)
    train = re.search(r'(\d+) steps \(([\d.]+) minutes, ([\d,]+) real tokens/s\)', Path(log).with_name(
        'qs_report.md').read_text()) if Path(log).with_name('qs_report.md').is_file() else None
    ev = json.loads(Path(metrics).read_text())
    return dict(wall_s_with_install=int(h or 0) * 3600 + int(m) * 60 + float(s),
                peak_rss_mib=int(re.search(r'Maximum resident set size \(kbytes\): (\d+)', text).group(1)) // 1024,
                quickstart_minutes=float(done.group(1)), model_median_ae_ms=float(done.group(2)),
                best_baseline=done.group(3), best_baseline_median_ae_ms=float(done.group(4)),
                train=dict(steps=int(train.group(1)), minutes=float(train.group(2)),
                           real_tokens_per_s=int(train.group(3).replace(',', ''))) if train else None,
                eval_seconds=ev['seconds'], eval_model_queries_per_s=ev['protocol']['model_queries_per_s'],
                test_probes=ev['protocol']['test_probes'], rtt_queries=ev['protocol']['queries'])


def main(out):
    bench = {e: json.loads(Path(f'runs/bench_predict_{e}.json').read_text()) for e in ('tree', 'prefix')}
    again = {e: json.loads(Path(f'runs/bench_predict_{e}_2.json').read_text()) for e in ('tree', 'prefix')}
    record = dict(
        what="Answering speed (the predictor's four questions, the demo server under load) and the first command's "
             'time from a fresh clone, on the 2-core development machine, idle (load average 0.00 before the first)',
        date='2026-12-03', issue=66,
        note='the first quickstart and predict runs on an idle machine; the second predict runs and the serve runs with '
             'the experiments queue paused (SIGSTOP) for their minutes', machine=cpu(), commit=git('rev-parse', 'HEAD'), commands=COMMANDS,
        quickstart=quickstart('runs/qs_fresh_clone.log', 'runs/qs_fresh_clone_metrics.json'),
        predict=bench, predict_again=again,
        predict_speedup={q: [r['prefix'][f'{q}_queries_per_s'] / r['tree'][f'{q}_queries_per_s'] for r in (bench, again)]
                         for q in RATES},
        serve={f'max_batch_{b}': json.loads(Path(f'runs/bench_serve_b{b}.json').read_text()) for b in (1, 32)})
    Path(out).write_text(json.dumps(record, indent=1) + '\n')
    print(json.dumps({k: record[k] for k in ('quickstart', 'predict_speedup')}, indent=1))


if __name__ == '__main__': main(sys.argv[1])
