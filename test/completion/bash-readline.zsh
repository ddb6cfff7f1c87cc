# Types command lines into an interactive bash and reports what TAB made of them.
#
#   zsh -f bash-readline.zsh SETUP LINE...
#
# bash runs on a pseudo-terminal (zsh/zpty), so readline splits the words and inserts
# the completion itself, as for a user. After SETUP (sourcing the script), each LINE
# is typed, then TAB, then Ctrl-T, bound to print the edited line between << and >>
# and clear it (not Ctrl-X: a prefix key makes readline wait for a second key; not a
# Ctrl-U to clear: the terminal, in cooked mode while the binding runs, would eat it).
# Prints one edited line per LINE.
emulate -L zsh
zmodload zsh/zpty || exit 3
local chunk line
zpty b 'HISTFILE= PS1= bash --norc --noprofile -i'
zpty -w b "$1; bind -x '\"\\C-t\": printf \"<<%s>>\\n\" \"\$READLINE_LINE\"; READLINE_LINE='; echo ready-\$((6*7))"
zpty -r b chunk '*ready-42*' || exit 4
shift
for line in "$@"; do
  zpty -w -n b "$line"$'\t\x14'
  zpty -r b chunk '*>>*' || exit 5
  print -r -- "${${chunk##*<<}%%>>*}"
done
# Wait for bash to end, so nothing writes in the folder after this script.
zpty -w b 'exit'
while zpty -r b chunk; do :; done
zpty -d b
