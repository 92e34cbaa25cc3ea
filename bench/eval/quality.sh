#!/usr/bin/env bash
# Reproduces the tables of docs/QUALITY.md: every set of the eval directory
# x mode x setting through `autorag eval` (make eval). Indexes are kept in
# $WORK between runs (one per set and analyzer), so a second run only
# queries.
#
#   bench/eval/quality.sh [EVAL_DIR]        default ../shared/eval
set -euo pipefail
EVAL=${1:-../shared/eval}
BIN=${BIN:-bin/autorag}
WORK=${WORK:-${TMPDIR:-/tmp}/autorag-eval}

run() { # set split ext analyzer label [flags...]
	local set=$1 split=$2 ext=$3 analyzer=$4 label=$5
	shift 5
	echo "### $set ($split) — $label"
	echo
	"$BIN" eval "$EVAL/$set" -q=false --split "$split" --ext "$ext" --analyzer "$analyzer" \
		--work "$WORK/$set-$analyzer" "$@" 2>/dev/null | sed 1,2d
	echo
}

sets=("nfcorpus dev .md" "nfcorpus test .md" "cosqa-dev dev .py" "xquad-de test .md" "xquad-es test .md")
for s in "${sets[@]}"; do
	read -r set split ext <<<"$s"
	run "$set" "$split" "$ext" auto "defaults (per-language analysis, adaptive fusion, floor, collapse)"
	run "$set" "$split" "$ext" english "English analysis only (before)" --modes bm25
	run "$set" "$split" "$ext" auto "convex fusion alpha 0.8, no floor (before)" --modes hybrid --fusion convex --fusion-alpha 0.8 --floor 0
	run "$set" "$split" "$ext" auto "adaptive fusion, no floor" --modes hybrid --floor 0
	run "$set" "$split" "$ext" auto "adaptive fusion + floor, no feedback (before)" --modes hybrid --feedback 0
	run "$set" "$split" "$ext" auto "no collapse" --modes bm25,hybrid --no-collapse
done
# The other dev sets of docs/QUALITY.md's embedder table (issue 22): defaults only.
run scifact-train train .md auto "defaults"
for l in ar el en hi ro ru th tr vi zh; do
	run "xquad-dev/$l" dev .md auto "defaults"
done
# English with English analysis only, against the default per-language analysis (issue 23).
run xquad-dev/en dev .md english "English analysis only" --modes bm25,hybrid
# NFCorpus train (2,590 queries): the larger selection set for the dense feedback.
run nfcorpus train .md auto "defaults" --modes bm25,hybrid
run nfcorpus train .md auto "no feedback (before)" --modes hybrid --feedback 0
# The transformer embedder (issue 22; `make models` installs the models): its own workspace per
# set and model, so the built-in embedder's indexes above stay as they are. TRANSFORMER_MODELS
# picks them. Defaults (the transformer's adaptive fusion), then the alternatives of
# docs/QUALITY.md's transformer table: the convex 0.8 of before, RRF 1:1, feedback toggled.
trun() { # model set split ext label [flags...]
	local model=$1 set=$2 split=$3 ext=$4 label=$5
	shift 5
	echo "### $set ($split) — transformer $model, $label"
	echo
	"$BIN" eval "$EVAL/$set" -q=false --split "$split" --ext "$ext" --embedder transformer --model "$model" \
		--work "$WORK/$set-transformer-$model" "$@" 2>/dev/null | sed 1,2d
	echo
}
for model in ${TRANSFORMER_MODELS:-all-minilm-l6-v2-q bge-small-en-v1.5-q}; do
	for s in "nfcorpus dev .md" "nfcorpus test .md" "cosqa-dev dev .py" "xquad-de test .md" "xquad-es test .md"; do
		read -r set split ext <<<"$s"
		trun "$model" "$set" "$split" "$ext" "defaults"
		trun "$model" "$set" "$split" "$ext" "convex 0.8 (before)" --modes hybrid --fusion convex --fusion-alpha 0.8
		trun "$model" "$set" "$split" "$ext" "rrf 1:1" --modes hybrid --fusion rrf
	done
	trun "$model" nfcorpus dev .md "feedback 0" --modes hybrid --feedback 0
	trun "$model" nfcorpus dev .md "feedback 5" --modes hybrid --feedback 5
	for l in ar el en hi ro ru th tr vi zh; do
		trun "$model" "xquad-dev/$l" dev .md "defaults"
	done
done
