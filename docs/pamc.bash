# pamc.bash — bash completion for pamc (installed as share/bash-completion/completions/pamc):
# subcommands, each command's options as its --help lists them (so they cannot drift), the
# values of --format, --scenario and --color, and files (.pam models, .mach machine files).
_pamc() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local commands="check reduce predict simulate calibrate gen extract fit help"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "$commands --help --version -V" -- "$cur"))
    return
  fi
  local cmd=${COMP_WORDS[1]}
  if [ "$cmd" = help ]; then
    [ "$COMP_CWORD" -eq 2 ] && COMPREPLY=($(compgen -W "$commands" -- "$cur"))
    return
  fi
  case $prev in
    --format)
      case $cmd in
        reduce) COMPREPLY=($(compgen -W "text json latex c" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "table csv json" -- "$cur")) ;;
      esac
      return ;;
    --scenario) COMPREPLY=($(compgen -W "lo mid hi random typ" -- "$cur")); return ;;
    --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
    -m) COMPREPLY=($(compgen -f -X '!*.mach' -- "$cur") $(compgen -d -- "$cur")); return ;;
    -l) COMPREPLY=($(compgen -f -X '!*.pam' -- "$cur") $(compgen -d -- "$cur")); return ;;
    -o|--plot) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --plot-data|--history) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    -D|-e|--runs|--seed|--reps|--loop-limit|--refine|--mpi-ranks) return ;;
  esac
  if [[ $cur == -* ]]; then
    local options
    options=$("${COMP_WORDS[0]}" "$cmd" --help 2>/dev/null |
              grep -oE -- '(^|[][ |,])--?[A-Za-z][A-Za-z-]*' | sed 's/^[][ |,]//' | sort -u)
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
    return
  fi
  case $cmd in
    gen) COMPREPLY=($(compgen -f -X '!*.spec' -- "$cur") $(compgen -d -- "$cur")) ;;
    extract) COMPREPLY=($(compgen -f -X '!*.c' -- "$cur") $(compgen -f -X '!*.json' -- "$cur")
                        $(compgen -d -- "$cur")) ;;
    fit) COMPREPLY=($(compgen -f -- "$cur")) ;;
    calibrate) ;;
    *) COMPREPLY=($(compgen -f -X '!*.pam' -- "$cur") $(compgen -f -X '!*.mach' -- "$cur")
                 $(compgen -d -- "$cur")) ;;
  esac
}
complete -o filenames -F _pamc pamc
