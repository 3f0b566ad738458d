#!/usr/bin/env bash
# Runs `setree eval` on the five dev LoCoMo conversations, both variants, fact and overview (broad) prompts.
# Usage: scripts/eval_locomo.sh OUT_PREFIX [extra eval flags...]   (writes OUT_PREFIX.json, .md, .txt)
set -euo pipefail
cd "$(dirname "$0")/.."
E=${SETREE_EVAL:-../shared/eval/locomo}
out=$1; shift
args=()
for id in 26 30 41 42 43; do
  for v in turns obs; do
    args+=(--facts "$E/locomo-$id.$v.facts.jsonl" --queries "$E/locomo-$id.$v.queries.jsonl"
           --broad "$E/locomo-$id.$v.broad.jsonl")
  done
done
# run from a copy of the jar, so that a rebuild during a long run cannot change the classes under it
snap=$(mktemp -d /tmp/setree-eval-jar.XXXXXX)
cp -r setree-cli/target/setree.jar setree-cli/target/lib "$snap/"
trap 'rm -rf "$snap"' EXIT
java ${JAVA_OPTS:-} -jar "$snap/setree.jar" eval "${args[@]}" --per-kb \
  --json "$out.json" --markdown "$out.md" "$@" 2>/dev/null > "$out.txt"
