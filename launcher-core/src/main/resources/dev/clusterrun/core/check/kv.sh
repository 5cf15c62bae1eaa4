# kv KEY VALUE: prints KEY=VALUE on one line, '\' as '\\' and newline as '\n'.
CR_NL='
'
kv() {
  case $2 in
    *"$CR_NL"* | *\\*)
      printf '%s=' "$1"
      printf '%s\n' "$2" | sed -e 's/\\/\\\\/g' | awk 'NR > 1 { printf "\\n" } { printf "%s", $0 } END { printf "\n" }'
      ;;
    *) printf '%s=%s\n' "$1" "$2" ;;
  esac
}
