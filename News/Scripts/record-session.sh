#!/usr/bin/env bash
# Records what a person sees when running the reader in a real terminal (tmux, 100×30):
# a frame of the screen every few hundred milliseconds, as plain text (and, with -e, with
# the colour escapes), for the README.
#
#   News/Scripts/record-session.sh [-e] > recording.txt
#
# Needs tmux and a built `news` (swift build --package-path News).
set -euo pipefail
cd "$(dirname "$0")/.."
escapes=""
[[ "${1:-}" == "-e" ]] && escapes="-e"
bin="$(swift build --show-bin-path)"
export PATH="$bin:$PATH"
session="news-recording-$$"
tmux new-session -d -s "$session" -x 100 -y 30 "bash --norc --noprofile"
trap 'tmux kill-session -t "$session" 2>/dev/null || true' EXIT
tmux send-keys -t "$session" "export PATH='$bin':\$PATH; PS1='$ '; clear" Enter
sleep 0.3

frame() {
  echo "──── t = $1"
  tmux capture-pane -t "$session" -p $escapes | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

type_command() {
  tmux send-keys -t "$session" "clear" Enter
  sleep 0.2
  tmux send-keys -t "$session" "$1" Enter
}

# 1. The front page streams in, in rank order, with a progress line.
type_command "news top --demo --limit 10 --latency 100-900"
for t in 0.4 0.8 1.2 1.6 2.4; do sleep 0.4; frame "${t} s"; done
sleep 1; frame "done"

# 2. A story with its comment tree (the API documentation's example poll).
type_command "news item 30239441 --demo"
sleep 1.5; frame "done"

# 3. watch: the live snapshot moves; Ctrl-C leaves it.
type_command "news watch --demo --limit 6 --interval 1"
sleep 2; frame "2 s"
sleep 3; frame "5 s"
tmux send-keys -t "$session" C-c
sleep 0.5; frame "after Ctrl-C"
