"""Build experiments/house/training_path.json: which of netlm's files and functions one `netlm train` run calls, from
the command line to the optimizer step, as Python's profiler sees them (a two-step run of the `tiny` preset on a
four-probe world). Named functions and methods only (comprehensions, lambdas and module bodies left out); the
argparse builders (`add_*`) counted apart, since `netlm` registers every subcommand on each call. From the
repository root: `python -m experiments.house.training_path experiments/house/training_path.json`."""
import cProfile, collections, json, pstats, sys, tempfile
from pathlib import Path

from experiments.common import git
from netlm.cli import main as netlm
from netlm.preprocess import build_probe_rows
from netlm.synth import generate


def main(out):
    tmp = Path(tempfile.mkdtemp(prefix='netlm-training-path-'))
    world = generate(tmp / 'world', probes=4, days=0.1, seed=0, progress=False)
    build_probe_rows(world['path'], tmp / 'rows', progress=False)
    argv = ['train', '--preset', 'tiny', '--data', str(tmp / 'rows'), '--workdir', str(tmp / 'run'), '--steps', '2',
            '--no-progress']
    profile = cProfile.Profile(); profile.enable()
    netlm(argv)
    profile.disable()
    called = collections.defaultdict(set)
    for (file, _, fn) in pstats.Stats(profile).stats:
        if Path(file).parent.name == 'netlm' and not fn.startswith('<'): called[Path(file).name].add(fn)
    files = {f: sorted(v - {x for x in v if x.startswith('add_')}) for f, v in sorted(called.items())}
    files = {f: v for f, v in files.items() if v}
    record = dict(what=__doc__.split('From the repository root')[0].strip(), command='netlm ' + ' '.join(argv),
                  commit=git('rev-parse', 'HEAD'), files=len(files), functions=sum(map(len, files.values())),
                  parser_builders=sum(len([x for x in v if x.startswith('add_')]) for v in called.values()),
                  by_file=files)
    Path(out).write_text(json.dumps(record, indent=1) + '\n')
    print(f"{record['files']} files, {record['functions']} functions ({record['parser_builders']} parser builders apart)")


if __name__ == '__main__': main(sys.argv[1])
