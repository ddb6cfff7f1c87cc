# Captures what zsh's completion system offers for some command lines.
#
#   zsh -f zsh-capture.zsh FPATH_DIR|SCRIPT OUT_FILE LINE...
#
# Completion widgets only run inside the line editor, so an interactive `zsh -f` runs
# on a pseudo-terminal (zsh/zpty) with compinit and FPATH_DIR (holding `_bo`) on its
# fpath, or with SCRIPT sourced after compinit. Each LINE is typed, followed by TAB, then Ctrl-U to clear it. TAB is bound to
# a completion widget whose `compadd` is wrapped: instead of adding matches, it writes
# the ones that match the word at the cursor (builtin `compadd -A`), with the part of
# the word completion kept ($IPREFIX, e.g. "--flag=" or "@") and the description when
# there is one, to OUT_FILE. A record separator line (\x1e) follows
# each TAB, so record N belongs to LINE N. The technique follows
# github.com/Valodim/zsh-capture-completion.
emulate -L zsh
zmodload zsh/zpty || exit 3
local dir=$1 out=$2
shift 2
: >| $out
local init=$out.init
cat >| $init <<'INIT'
PS1='' PROMPT='' RPROMPT=''
# Wide, so descriptions are not cut to fit the terminal.
stty columns 1000 2>/dev/null
unsetopt zle_bracketed_paste 2>/dev/null
[[ -d $CAPTURE_FPATH ]] && fpath=($CAPTURE_FPATH $fpath)
autoload -Uz compinit && compinit -u -D
[[ -f $CAPTURE_FPATH ]] && source $CAPTURE_FPATH
zstyle ':completion:*' list-grouped false
compadd() {
  # Calls that only test or collect candidates (-O, -A, -D) run as they are.
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
    builtin compadd "$@"
    return
  fi
  local -a __hits __dscr
  local __d
  if (( $@[(I)-d] )); then
    __d=${@[$(( ${@[(i)-d]} + 1 ))]}
    if [[ $__d == \(* ]]; then eval "__dscr=$__d"; else __dscr=( "${(@P)__d}" ); fi
  fi
  builtin compadd -A __hits -D __dscr "$@"
  local i
  for (( i = 1; i <= $#__hits; i++ )); do
    if [[ -n $__dscr[i] ]]; then
      print -r -- "$IPREFIX$__hits[i] -- ${${__dscr[i]#$__hits[i]}## #(-- |)}" >> $CAPTURE_OUT
    else
      print -r -- "$IPREFIX$__hits[i]" >> $CAPTURE_OUT
    fi
  done
}
_capture_complete() {
  _main_complete
  print -r -- $'\x1e' >> $CAPTURE_OUT
}
zle -C capture-complete .complete-word _capture_complete
bindkey '^I' capture-complete
INIT
export CAPTURE_FPATH=$dir CAPTURE_OUT=$out
zmodload zsh/zselect || exit 3
zpty z zsh -f -i
# Keys typed before the line editor is ready can be dropped, so wait for a sign that
# the setup ran (the echo of this command shows "$((6*7))", its output "42") ...
local chunk
zpty -w z "source ${(q)init}; print ready-\$((6*7))"
zpty -r z chunk '*ready-42*' || exit 4
# ... and for each TAB to finish (one more separator in OUT_FILE) before the next key.
local line n=0 tries
for line in "$@"; do
  zpty -w -n z "$line"$'\t'
  (( n++ ))
  for (( tries = 0; tries < 1000; tries++ )); do
    while zpty -r -t z chunk; do :; done
    [[ ${#${(f)"$(<$out)"}:#^$'\x1e'} -ge $n ]] && break
    zselect -t 1
  done
  zpty -w -n z $'\x15'
done
zpty -w z 'exit'
while zpty -r z chunk; do :; done
zpty -d z
