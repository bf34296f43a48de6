#!/usr/bin/env bash
# The longer fuzz run behind the README's "Reliability" figures: the three property tests
# of `make test` (factory junk, socket and Socket.IO frames, every URL as three kinds of visitor) at
# FUZZ_SCALE times their size, plus the regression tests of every hardening finding.
#   FUZZ_SCALE=20 benchmarks/fuzz.sh          # about 11,000 requests and 6,400 frames
# Runs against whatever DATABASE_URL / REDIS_URL name (the embedded defaults otherwise).
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${FUZZ_SCALE:-20}
start=$(date +%s)
FUZZ_SCALE=$scale .venv/bin/python -m pytest -q -p no:randomly \
    tests/test_fuzz_factory.py tests/test_fuzz_urls.py tests/test_fuzz_sockets.py \
    tests/test_hardening.py tests/test_hardening_edges.py tests/test_socketio_edges.py \
    tests/test_daphne_memory.py -s "$@"
echo "fuzz: scale $scale: $((250 * scale)) factory posts, $((300 * scale)) URL requests," \
     "$((4 * scale)) matches x 80 socket frames = $((320 * scale)) frames," \
     "$((2 * scale)) Socket.IO connections x 60 frames = $((120 * scale)) frames;" \
     "no server error, no exception, every match equal to the replay of its log;" \
     "$(( $(date +%s) - start )) s"
# The families of games issue 39 found unplayable (generated rule documents played at
# random: every legal move applies, every position has a move or is over; Save's check).
FUZZ_SCALE=$scale .venv/bin/python -m pytest -q -p no:randomly \
    tests/test_unplayable_properties.py tests/test_unplayable_games.py
echo "fuzz: scale $scale: $((48 * scale)) generated general games, $((25 * scale)) nested" \
     "Checked games (8 set-ups, 2 games each), $((16 * scale)) Save checks"
