#!/bin/sh
# Seeds the corpora of the text targets (batch, parse) with real requests
# and layouts from the reference data (tests/data/), one input per file, plus
# a few hand-written ones for the requests the data lack. The byte-decoded
# targets (chain, compose, merge) need no seeds. Idempotent: file names are
# the inputs' hashes. Needs jq.
set -eu
cd "$(dirname "$0")"
data=../tests/data
mkdir -p corpus/batch corpus/parse
put() { # put DIR TEXT: one input per file, named by its hash
    h=$(printf '%s' "$2" | sha1sum | cut -c1-16)
    printf '%s' "$2" > "$1/seed-$h"
}
requests() {
    jq -c '.[].request' "$data/tinygrad_chains.json" | awk 'NR % 3 == 1'
    jq -c '.[].request' "$data/merge_pairs.json" | awk 'NR % 4 == 1'
    jq -c '.[].request' "$data/pycute_suite.json"
    jq -c '.[].request' "$data/algebra_random.json" | awk 'NR % 50 == 1'
    cat <<'REQ'
{"op":"eval","layout":"(2,(2,2)):(2,(1,4))"}
{"op":"eval","layout":"Sw<1,0,2> o 0 o (4,4):(4,1)"}
{"op":"flatten","layout":"((10,10)):((1,10))"}
{"op":"complement","layout":"(4,2):(-4,1)","cotarget":32}
{"op":"expr","layout":"(4,6):(1,4)","lang":"c"}
{"op":"chain","shape":[4,6],"ops":[["permute",[1,0]],["pad",[[1,0],[0,2]]],["flip",[true,false]]],"expr":"python","expr_input":"linear"}
{"op":"chain","shape":[0,3],"ops":[["reshape",[3,0]],["shrink",[[0,1],[0,0]]]],"offsets":true}
{"op":"compose","a":"Sw<2,1,3> o 0 o (8,8):(8,1)","b":"(4,2):(1,4)"}
{"op":"logical_divide","a":"Sw<2,1,3> o 0 o (8,8):(8,1)","b":"4:1"}
{"op":"merge","first":{"shape":[4,4],"strides":[4,1],"offset":0,"mask":[[1,3],[0,4]]},"second":{"shape":[16],"strides":[1],"offset":0,"mask":null}}
REQ
}
requests | while IFS= read -r line; do put corpus/batch "$line"; done
# A stream of several requests, a bad line between good ones.
put corpus/batch "$(printf '%s\n' '{"op":"eval","layout":"3:2"}' 'not json' '{"op":"coalesce","layout":"(2,2):(2,1)"}')"
{
    jq -r '.[].request | (.a, .b, .layout) | select(. != null)' "$data/algebra_random.json" | awk 'NR % 40 == 1'
    printf '%s\n' '(2,(2,2)):(2,(1,4))' '((10,10)):((1,10))' '8:1' '():()' '(3,4):(-4,1)' \
        'Sw<3,4,3> o 0 o (8,64):(64,1)' 'Sw<1,0,-2> o 16 o 8:1' '(2, (3,-4))'
} | while IFS= read -r t; do put corpus/parse "$t"; done
echo "corpus/batch: $(ls corpus/batch | wc -l) inputs, corpus/parse: $(ls corpus/parse | wc -l)"
