"""F9's init model (experiments/recall/reinit_dst_rule.md): the shipped base with its destination embedding drawn
afresh from the model's initialisation, N(0, 0.02); every other array as shipped. Run from the repository root:
`python -m experiments.recall.reinit_dst runs/base_dst_reinit`."""
import json, shutil, sys
from pathlib import Path

import numpy as np

from netlm.artefacts import file_sha256, manifest_checksum, pretrained_path, read_export

EMBEDDING, STD, SEED = 'dst_embed/embedding', 0.02, 0


def main(out):
    base, out = pretrained_path('base'), Path(out)
    read_export(base)                                    # the shipped export, checked before it is copied
    shutil.copytree(base, out)
    arrays = dict(np.load(base / 'params.npz'))
    shape = arrays[EMBEDDING].shape
    arrays[EMBEDDING] = (np.random.default_rng(SEED).standard_normal(shape) * STD).astype(np.float32)
    np.savez(out / 'params.npz', **arrays)
    manifest = json.loads((out / 'manifest.json').read_text())
    f = out / 'params.npz'
    manifest['files'][f.name] = dict(bytes=f.stat().st_size, sha256=file_sha256(f))
    manifest['source']['reinit'] = dict(array=EMBEDDING, std=STD, seed=SEED, rule='experiments/recall/reinit_dst_rule.md')
    manifest['checksum'] = manifest_checksum(manifest)
    (out / 'manifest.json').write_text(json.dumps(manifest, indent=1) + '\n')
    read_export(out)                                     # the copy reads back as a valid export
    print(f'{out}: {EMBEDDING} {shape} redrawn (row norm median '
          f'{np.median(np.linalg.norm(arrays[EMBEDDING], axis=1)):.3f})')


if __name__ == '__main__': main(sys.argv[1])
