# Types command lines into an interactive bash and reports what TAB made of them.
#
#   zsh -f bash-readline.zsh SETUP LINE...
#
# bash runs on a pseudo-terminal (zsh/zpty), so readline splits the words and inserts
# the completion itself, as for a user. After SETUP (sourcing the script), each LINE
# is typed, then TAB, then Ctrl-T, bound to print the edited line between << and >>
# (not Ctrl-X: a prefix key makes readline wait for a second key); then Ctrl-U clears
# it. Prints one edited line per LINE.
emulate -L zsh
zmodload zsh/zpty || exit 3
local chunk line
zpty b 'PS1= bash --norc --noprofile -i'
zpty -w b "$1; bind -x '\"\\C-t\": printf \"<<%s>>\\n\" \"\$READLINE_LINE\"'; echo ready-\$((6*7))"
zpty -r b chunk '*ready-42*' || exit 4
shift
for line in "$@"; do
  zpty -w -n b "$line"$'\t\x14'
  zpty -r b chunk '*>>*' || exit 5
  print -r -- "${${chunk##*<<}%%>>*}"
  zpty -w -n b $'\x15'
done
zpty -d b
