"""The shipped base in export format 2: the same weights (`params.npz`, array for array), its manifest without the
three model fields that format 2 retired (`same_dst_bias`, `dst_prefix_bias`, `dst_prefix_from`, all off in it), and
its two functions exported again by this netlm. Run from the repository root:

    python -m experiments.base_format_2.reexport OLD_BASE_DIR NEW_BASE_DIR

where OLD_BASE_DIR is the format-1 base (`git archive d85032e netlm/pretrained/base | tar -x -C OLD`) and NEW_BASE_DIR
does not exist yet. It refuses a base with a retired option on, and checks that every array comes through unchanged."""
import hashlib, json, sys
from pathlib import Path

import numpy as np
from flax import nnx

from netlm.config import ModelConfig
from netlm.export import write_export
from netlm.model import Transformer, named_params, set_params

RETIRED = {'same_dst_bias': False, 'dst_prefix_bias': False, 'dst_prefix_from': 0}


def main(old: Path, new: Path):
    manifest = json.loads((old / 'manifest.json').read_text())
    assert manifest['version'] == 1 and manifest['kind'] == 'export', 'not a format-1 export'
    on = {k: manifest['model'][k] for k, off in RETIRED.items() if manifest['model'].get(k, off) != off}
    if on: raise SystemExit(f'{old}: a retired option is on ({on}); format 2 cannot hold it')
    config = ModelConfig(**{k: v for k, v in manifest['model'].items() if k not in RETIRED})
    with np.load(old / 'params.npz') as stored: arrays = {k: stored[k] for k in stored.files}
    graph, state = nnx.split(Transformer(config, rngs=nnx.Rngs(0)))
    model = nnx.merge(graph, set_params(state, arrays, str(old)))
    source = dict(manifest['source'], format_1_manifest_sha256=hashlib.sha256((old / 'manifest.json').read_bytes()).hexdigest())
    written = write_export(model, manifest['seq_len'], source, new)
    with np.load(new / 'params.npz') as stored:
        assert set(stored.files) == set(arrays) and all(np.array_equal(stored[k], arrays[k]) for k in arrays)
    print(f"{new}: format {written['version']}, {written['params']['count']:,} parameters, every array unchanged; "
          f"manifest sha256 {hashlib.sha256((new / 'manifest.json').read_bytes()).hexdigest()}")


if __name__ == '__main__':
    main(Path(sys.argv[1]), Path(sys.argv[2]))
