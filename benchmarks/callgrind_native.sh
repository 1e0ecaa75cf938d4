#!/bin/sh
# Instructions and heap allocations of one native seated base-set game (issue 31's speed
# targets), at the outcome level, the full level and as `hkk simulate --core native` records
# it: each run under valgrind with N games and with 0, the difference divided by N.
# Usage: [WHAT='outcome rows'] sh benchmarks/callgrind_native.sh [games]  (needs valgrind and the native core built;
# heap allocations are counted by memcheck's "total heap usage", so they include the
# Python side of the batched call: a few per game).
set -e
games=${1:-200}
here=$(dirname "$0")
export PYTHONHASHSEED=0
python -m compileall -q "$here/../core" >/dev/null
instructions() {  # WHAT N
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python "$here/instr_native.py" "$1" "$2" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
allocations() {  # WHAT N
    valgrind --tool=memcheck --leak-check=no python "$here/instr_native.py" "$1" "$2" 2>&1 \
        | sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,
}
for what in ${WHAT:-outcome full rows tally}; do
    with=$(instructions $what "$games"); without=$(instructions $what 0)
    echo "$what: $(( (with - without) / games )) instructions a game"
    if [ -z "$NO_ALLOCS" ]; then
        with=$(allocations $what "$games"); without=$(allocations $what 0)
        echo "$what: $(( (with - without) / games )) heap allocations a game"
    fi
done
