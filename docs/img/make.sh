#!/usr/bin/env bash
# Redraws the pictures of docs/concepts.md. Needs `hlayout` on the PATH
# (`cargo install --path cli`) and the Python package (`pip install ./python`).
# Run from the repository root: docs/img/make.sh
set -euo pipefail
cd "$(dirname "$0")"
hlayout show --svg "(2,3):(3,1)" > row-major-2x3.svg
hlayout show --svg "(2,3):(1,2)" > col-major-2x3.svg
hlayout show --svg "(2,(2,2)):(2,(1,4))" > nested.svg
hlayout show --svg "(4,(2,4)):(2,(1,8))" > nested-4x8.svg
"${PYTHON:-python3}" - <<'PY'
from hlayout import ViewStack
pad = ViewStack([4, 4]).pad([(1, 1), (0, 0)])
conv = (ViewStack([6]).pad([(1, 1)]).reshape([1, 8]).expand([4, 8]).reshape([32])
        .shrink([(0, 27)]).reshape([3, 9]).shrink([(0, 3), (0, 6)]).permute([1, 0]))
open("padded.svg", "w").write(pad._repr_svg_())
open("conv1d-window.svg", "w").write(conv._repr_svg_())
PY
