# Prints one driver's section of bench/settings.txt as its --help shows it: NAME, DEFAULT ("-" for none; "; QUICK"
# after it where the quick run's differs), WHAT; a default too long for its column puts WHAT on a line of its own.
#   awk -v driver=run.sh -f bench/settings.awk bench/settings.txt
BEGIN { FS = " *[|] *" }
/^\[/ { in_section = ($0 == "[" driver "]"); next }
in_section && /^[A-Z]/ {
  defaults = ($2 == "" ? "-" : $2) ($3 == "" ? "" : "; " $3)
  if (length(defaults) > 17) {
    printf "  %-28s %s\n  %-28s %-17s %s\n", $1, defaults, "", "", $4
  } else {
    printf "  %-28s %-17s %s\n", $1, defaults, $4
  }
}
