#!/usr/bin/env bash
# build.sh: build the static site into dist/, or run every test suite.
#
#   ./build.sh          build dist/ (wasm, wasm_exec.js, the web files, the data)
#   ./build.sh test     gofmt, go vet, native tests, core and bridge tests under
#                       js/wasm in node, then the browser end-to-end tests in headless Chromium
#   ./build.sh figures  the paper's figures (CSV + SVG) from the bundled data, in figures/
#   ./build.sh bench    the page's timings (first result, a return visit, the learner alone on an
#                       empty page, a first Play, offline open, main-thread stalls, the whole
#                       table in the browser) printed and written
#                       to bench.json; SPMTL_BENCH_TABLE=0 leaves out the table
#                       (minutes). Figures, not gates: they depend on the machine.
set -euo pipefail
cd "$(dirname "$0")"

build() {
  local out=dist
  rm -rf "$out.tmp"
  mkdir -p "$out.tmp"
  # Inlining only where the fits and the runtime spend their time (the
  # solvers, linalg, math, the runtime): everywhere else (fmt, reflect, the
  # intake, the bridge, the catalogue) it copied code for no measurable
  # speed, about 67 KB of the gzipped learner (docs/bench.md, "Third
  # round"). Inlining does not change Go's arithmetic: the results are the same.
  local m=github.com/spmtl/spmtl/core
  # -tags spmtlkernels: the linear algebra's hand-written WebAssembly
  # kernels (core/internal/linalg/kernels_js.go; docs/bench.md).
  GOOS=js GOARCH=wasm go build -tags spmtlkernels -trimpath -ldflags="-s -w" -gcflags=all=-l \
    -gcflags="$m/internal/linalg=" -gcflags="$m/mtl=" -gcflags="$m/seq=" -gcflags=math= -gcflags=math/bits= -gcflags=runtime= \
    -o "$out.tmp/spmtl.wasm" ./wasm
  cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$out.tmp/"
  # The catalogue as the learner answers it (spmtlRaw.catalog), written once
  # here: the page's head script fetches it instead of waiting for the
  # learner to start (web/js/main.js). Without node the page still works:
  # it asks the learner, a little later.
  if command -v node > /dev/null; then
    node -e '
      globalThis.self = globalThis;
      require(process.argv[1]);
      const fs = require("fs"), go = new Go();
      // The catalogue needs no kernels: each import answers 0, so the
      // learner keeps its Go loops (web/js/api.js spmtlKernelImports).
      go.importObject.spmtl = new Proxy({}, { get: () => () => 0 });
      WebAssembly.instantiate(fs.readFileSync(process.argv[2]), go.importObject).then(({ instance }) => {
        go.run(instance);
        const text = self.spmtlRaw.catalog("{}");
        JSON.parse(text);
        fs.writeFileSync(process.argv[3], text);
        process.exit(0);
      });' "$PWD/$out.tmp/wasm_exec.js" "$out.tmp/spmtl.wasm" "$out.tmp/catalog.json"
  else
    echo "node not found: no catalog.json, the page asks the learner for its catalogue" >&2
  fi
  cp web/index.html web/style.css web/spmtl.js "$out.tmp/"
  mkdir -p "$out.tmp/js" "$out.tmp/examples"
  cp web/js/*.js "$out.tmp/js/"
  cp web/examples/*.html "$out.tmp/examples/"
  cp -r web/data "$out.tmp/data"
  # web/data/embed.go makes the folder a Go package for the CLI; a copy in
  # dist/ would be one more package in ./... (go vet, go test).
  rm -f "$out.tmp"/data/*.go
  # Each bundled CSV also as a binary table (spmtl pack), which the page
  # reads without parsing a number; the CSV stays for downloads and reloads.
  local csv
  for csv in "$out.tmp"/data/*/data.csv; do
    go run ./core/cmd/spmtl pack -data "$csv" -out "${csv%.csv}.packed" > /dev/null
  done
  # The page's modules joined into one (web/offline -module), which the
  # served index.html loads instead of main.js's graph of ~36 files.
  go run ./web/offline -dist "$out.tmp" -web web -o "$out.tmp/spmtl-offline.html" -module "$out.tmp/js/app.bundle.js"
  grep -q '<script type="module" src="js/main.js"></script>' "$out.tmp/index.html"
  sed -i 's|<script type="module" src="js/main.js"></script>|<script type="module" src="js/app.bundle.js"></script>|' "$out.tmp/index.html"
  # The learner gzipped by GNU gzip -9, about 1% smaller than Go's level 9
  # (14 KB): serve.go sends it instead of compressing the wasm itself.
  gzip -9 -n -c "$out.tmp/spmtl.wasm" > "$out.tmp/spmtl.wasm.gz"
  # And by zstd -19 when this machine has the command (Debian's zstd):
  # 22% smaller again, and the browsers that ask for it decode it faster;
  # serve.go sends it to them (docs/bench.md, "Twenty-fourth round").
  if command -v zstd > /dev/null; then
    zstd -19 -q -c "$out.tmp/spmtl.wasm" > "$out.tmp/spmtl.wasm.zst"
  fi
  rm -rf "$out"
  mv "$out.tmp" "$out"
  local zst=""
  [ -f "$out/spmtl.wasm.zst" ] && zst=", $(wc -c < "$out/spmtl.wasm.zst") by zstd"
  echo "built $out/: spmtl.wasm $(wc -c < "$out/spmtl.wasm") bytes, $(wc -c < "$out/spmtl.wasm.gz") gzipped$zst; spmtl-offline.html $(wc -c < "$out/spmtl-offline.html") bytes"
}

run_tests() {
  echo "== gofmt"
  local unformatted
  unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './dist/*'))
  if [ -n "$unformatted" ]; then echo "gofmt would change: $unformatted"; exit 1; fi
  echo "== go vet (native and js/wasm)"
  go vet ./...
  GOOS=js GOARCH=wasm go vet ./core/... ./wasm/...
  GOOS=js GOARCH=wasm go vet -tags spmtlkernels ./core/... ./wasm/...
  echo "== go test (native)"
  go test -count=1 ./...
  echo "== go test core and the bridge under js/wasm (node)"
  GOOS=js GOARCH=wasm go test -count=1 -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./core/... ./wasm/...
  echo "== the same as the learner is built: with its WebAssembly kernels"
  # (wasm/testexec/kernels_exec is Go's go_js_wasm_exec with the kernels'
  # host imports; without the tag the Go loops run, as natively.)
  GOOS=js GOARCH=wasm go test -count=1 -tags spmtlkernels -exec="$PWD/wasm/testexec/kernels_exec" ./core/... ./wasm/...
  echo "== browser end-to-end tests (headless Chromium)"
  # axe-core, the accessibility checker the browser tests inject (pinned in
  # web/e2e/package-lock.json).
  [ -f web/e2e/node_modules/axe-core/axe.min.js ] || npm ci --prefix web/e2e --no-audit --no-fund --silent
  build
  # (go test's default of 10 minutes is near what the browser tests take
  # on a busy two-core machine.)
  SPMTL_E2E=1 SPMTL_DIST="$PWD/dist" go test -count=1 -v -timeout 40m -run . ./web/e2e/
}

# figures rebuilds the paper's figures. The hyperparameters are the medians
# that cross-validation chose in `spmtl reproduce -runs 10` (paper variant);
# landmine uses the authors' fixed rho = 0.01, lambda0 = 1.
figures() {
  local out=figures fig="go run ./core/cmd/spmtl figure"
  rm -rf "$out"
  $fig tau -data syn2 -rho 0.01 -lambda0 1 -maxiter 50 -out "$out/syn2-tau"
  $fig scatter -data syn2 -rho 0.01 -lambda0 1 -maxiter 50 -out "$out/syn2-scatter"
  $fig scatter -data web/data/school/data.csv -split web/data/school/splits.csv:1 -rho 0.01 -lambda0 50 -out "$out/school-scatter"
  $fig scatter -data web/data/cs/data.csv -train 15 -rho 0.1 -lambda0 1 -maxiter 50 -out "$out/cs-scatter"
  $fig lambda -data web/data/school/data.csv -split web/data/school/splits.csv:1 -rho 0.01 -values 1,10,25,50,75,100 -out "$out/school-lambda"
  $fig pace -data web/data/cs/data.csv -train 15 -rho 0.1 -lambda0 1 -maxiter 50 -values 1.01,1.05,1.1,1.2,1.5 -out "$out/cs-pace"
  $fig sequential -data web/data/landmine/data.csv -train 80 -rho 0.01 -lambda0 1 -out "$out/landmine-sequential"
  echo "figures in $out/"
}

bench() {
  build
  SPMTL_E2E=1 SPMTL_BENCH=1 SPMTL_DIST="$PWD/dist" SPMTL_BENCH_OUT="$PWD/bench.json" \
    go test -count=1 -v -timeout 60m -run '^TestBench$' ./web/e2e/ | grep -v '^=== RUN'
}

case "${1:-build}" in
  build) build ;;
  test) run_tests ;;
  figures) figures ;;
  bench) bench ;;
  *) echo "usage: $0 [build|test|figures|bench]" >&2; exit 2 ;;
esac
