#!/bin/sh
# Instructions of the turn machine's operations (issue 30): each measured under callgrind with
# its work and without, the difference divided by the work.  Usage: sh benchmarks/callgrind.sh
# [games] [copies]  (slow: callgrind runs Python about 50 times slower).
set -e
games=${1:-3}
copies=${2:-20}
here=$(dirname "$0")
# string hashes fixed: set and dict orders (and their probing) the same in every run; with the
# games' fixed time source (instr_machine.py) two runs count the same instructions
export PYTHONHASHSEED=0
# bytecode first: a module the games import lazily, compiled inside the counted run, adds
# about 16 M instructions to a seated game's figure
python -m compileall -q "$here/../core" "$here/../sets" >/dev/null
count() {  # instructions of one run: WHAT N
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python "$here/instr_machine.py" "$1" "$2" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for what in seated outside; do
    with=$(count $what "$games"); without=$(count $what 0)
    echo "$what: $(( (with - without) / games )) instructions a game"
done
for what in clone determinize; do
    n=$(python "$here/instr_machine.py" $what 1)
    with=$(count $what "$copies"); without=$(count $what 0)
    echo "$what: $(( (with - without) / (n * copies) )) instructions a copy ($n decisions)"
done
