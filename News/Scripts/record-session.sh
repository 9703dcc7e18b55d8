#!/usr/bin/env bash
# Records what a person sees when running `news` in a real terminal (tmux, 100×30): a frame
# of the screen (with its scroll-back) every few hundred milliseconds, as plain text (and,
# with -e, with the colour escapes), for the README.
#
#   News/Scripts/record-session.sh [-e] > recording.txt
#
# Needs tmux and a built `news` (swift build --package-path News). The database goes to a
# temporary folder, so the recording starts with nothing kept and touches nothing of yours.
set -euo pipefail
cd "$(dirname "$0")/.."
escapes=""
[[ "${1:-}" == "-e" ]] && escapes="-e"
bin="$(swift build --show-bin-path)"
data="$(mktemp -d)"
session="news-recording-$$"
tmux new-session -d -s "$session" -x 100 -y 30 "bash --norc --noprofile"
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$data"' EXIT
tmux send-keys -t "$session" "export PATH='$bin':\$PATH XDG_DATA_HOME='$data'; PS1='$ '; clear" Enter
sleep 0.3

# The screen and what scrolled off it since the last command, without trailing blank lines.
frame() {
  echo "──── t = $1"
  tmux capture-pane -t "$session" -p -S - $escapes | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

type_command() {
  tmux send-keys -t "$session" "clear" Enter
  sleep 0.2
  tmux clear-history -t "$session"
  tmux send-keys -t "$session" "$1" Enter
}

# 1. The front page streams in, in rank order, with a progress line; each row ends with its id.
type_command "news top --demo --limit 10 --latency 100-900"
for t in 0.4 0.8 1.2 1.6 2.4; do sleep 0.4; frame "${t} s"; done
sleep 1; frame "done"

# 2. The second row of that list, by rank: the Dropbox thread, with the demo's four comments.
type_command "news item --rank 2 --demo --latency 0 | head -3 && news item 8863 --demo"
sleep 2.5; frame "done"

# 3. What was read is kept: offline, with no server, the list shows the read marks.
type_command "news filter add python && news top --offline --limit 5"
sleep 1.5; frame "done"

# 4. A user, and a pipe that closes early.
type_command "news user tukajo --demo && news top --demo --limit 100 | head -2; echo \"status \${PIPESTATUS[0]}\""
sleep 2.5; frame "done"

# 5. watch: the live snapshot moves; Ctrl-C leaves it.
type_command "news watch --demo --limit 6 --interval 1"
sleep 2; frame "2 s"
sleep 3; frame "5 s"
tmux send-keys -t "$session" C-c
sleep 0.5; frame "after Ctrl-C"
