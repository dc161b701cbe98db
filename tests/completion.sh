#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The bash completion (completion/pipebench.bash), driven as bash drives it:
# COMP_WORDS and COMP_CWORD set, the function called, COMPREPLY checked.
# First against a stub program that answers the listing interface exactly
# as the man page specifies (so the script is proven whatever the binary
# does), then against the built pipebench itself.
if [ -z "$BASH_VERSION" ]; then
	command -v bash >/dev/null 2>&1 || {
		echo "1..0 # SKIP bash is not installed"
		exit 0
	}
	exec bash "$0" "$@"
fi
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
tap_tmpdir

SCRIPT=${TESTS_SRCDIR:-$(dirname "$0")}/../completion/pipebench.bash
[ -r "$SCRIPT" ] || skip_all "no completion script at $SCRIPT"
((BASH_VERSINFO[0] >= 4)) || skip_all "bash $BASH_VERSION is older than 4"
# shellcheck source=../completion/pipebench.bash
. "$SCRIPT" || skip_all "cannot source $SCRIPT"

# comp WORD...: complete the last WORD of the command line WORD...; prints
# COMPREPLY sorted, space-separated.
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_pipebench
	((${#COMPREPLY[@]})) || return 0
	printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | paste -sd ' ' -
}

# ---------------------------------------------------------------- the stub
STUB=$TEST_TMP/stub/pbstub
mkdir "$TEST_TMP/stub" || exit 99
T=$(printf '\t')
cat >"$STUB" <<EOF
#!/bin/sh
case "\$*" in
--list-commands) printf '%s\n' throughput conformance compare ;;
"throughput --list-options") cat <<'END'
--kind${T}-k${T}words${T}anon,fifo,socketpair,all
--size${T}-s${T}sizes${T}
--loops${T}-n${T}count${T}
--dir${T}-d${T}dir${T}
--threads${T}-${T}flag${T}
--format${T}-f${T}word${T}text,json,csv
--output${T}-o${T}file${T}
--quiet${T}-q${T}flag${T}
END
;;
"conformance --list-options") cat <<'END'
--list${T}-l${T}flag${T}
--only${T}-O${T}words${T}
--skip${T}-S${T}words${T}
--kind${T}-k${T}words${T}anon,fifo,all
--format${T}-f${T}word${T}text,json,tap,junit
--quiet${T}-q${T}flag${T}
END
;;
"compare --list-options") cat <<'END'
--threshold${T}-T${T}double${T}
--format${T}-f${T}word${T}text,json
--quiet${T}-q${T}flag${T}
END
;;
"compare --list-operands") echo file ;;
*" --list-operands") echo ;;
"conformance --list") cat <<'END'
CRE-01${T}P17${T}creation${T}Basic contract of pipe()${T}XSH pipe()
CRE-02${T}P17${T}creation${T}fds are the two lowest available${T}XSH pipe()
RD-01${T}P17${T}read${T}A short read returns what is available${T}XSH read()
RD-02${T}P17${T}read${T}EOF after drain${T}XSH read()
WR-01${T}P17${T}write${T}Blocking write${T}XSH write()
END
;;
*) echo "pbstub: unexpected: \$*" >&2; exit 2 ;;
esac
EOF
chmod +x "$STUB" || exit 99
mkdir "$TEST_TMP/files" "$TEST_TMP/files/sub dir" &&
	: >"$TEST_TMP/files/base.json" && : >"$TEST_TMP/files/new.json" || exit 99

is "$(complete -p pipebench 2>&1)" "complete -F _pipebench pipebench" \
	"sourcing the script registers _pipebench for pipebench"

S=$STUB
is "$(comp "$S" "")" "compare conformance help throughput" "commands, and help"
is "$(comp "$S" co)" "compare conformance" "commands by prefix"
is "$(comp "$S" -)" "--help --version" "options before a command"
is "$(comp "$S" help th)" "throughput" "help COMMAND completes a command"
is "$(comp "$S" throughput --)" \
	"--dir --format --kind --loops --output --quiet --size --threads" \
	"options of throughput"
is "$(comp "$S" conformance --)" "--format --kind --list --only --quiet --skip" \
	"options of conformance, another set"
is "$(comp "$S" throughput "")" \
	"--dir --format --kind --loops --output --quiet --size --threads" \
	"no operands: an empty word offers the options"
is "$(comp "$S" throughput --quiet -k fifo --)" \
	"--dir --format --loops --output --size --threads" \
	"options already given (long or short) are not offered again"
is "$(comp "$S" throughput --kind f)" "fifo" "--kind f -> fifo"
is "$(comp "$S" throughput -k F)" "fifo" "-k F -> fifo (short option, any case)"
is "$(comp "$S" throughput --kind anon,)" "anon,all anon,fifo anon,socketpair" \
	"a list value: the next item, the given ones left out"
is "$(comp "$S" throughput --kind anon,s)" "anon,socketpair" "a list value's last item"
is "$(comp "$S" throughput --format "")" "csv json text" "a word option: its words"
is "$(comp "$S" conformance --kind "")" "all anon fifo" \
	"--kind's words are the command's own"
is "$(comp "$S" throughput --format = j)" "json" "--format=j, split at '='"
is "$(comp "$S" throughput --format =)" "csv json text" "--format=, split at '='"
is "$(comp "$S" throughput --format=j)" "--format=json" "--format=j as one word"
is "$(comp "$S" throughput --size "")" "" "a size: nothing to offer"
is "$(comp "$S" throughput --threads "")" \
	"--dir --format --kind --loops --output --quiet --size" \
	"after a flag: options again"
is "$(comp "$S" conformance --only RD-0)" "RD-01 RD-02" "--only RD-0: check IDs"
is "$(comp "$S" conformance --only r)" "RD-01 RD-02 read" \
	"--only r: IDs and groups, any case"
is "$(comp "$S" conformance -S CRE-01,CRE-)" "CRE-01,CRE-02" \
	"-S CRE-01,CRE-: the next ID of a list"
is "$(comp "$S" conformance --skip w)" "WR-01 write" "--skip w: IDs and groups"

cd "$TEST_TMP/files" || exit 99
is "$(comp "$S" compare "")" "base.json new.json sub dir" "compare: files"
is "$(comp "$S" compare base.json n)" "new.json" "compare's second file"
is "$(comp "$S" compare -)" "--format --quiet --threshold" \
	"compare: a dash still gives options"
is "$(comp "$S" throughput --output b)" "base.json" "a file option: files"
is "$(comp "$S" throughput --dir "")" "sub dir" "a dir option: directories only"
is "$(comp "$S" throughput -- "")" "" "after --: no options"
is "$(comp "$S" thruput --)" "" "an unknown command: nothing"
cd "$TEST_TMP" || exit 99

printf '#!/bin/sh\nexit 2\n' >"$TEST_TMP/stub/old" && chmod +x "$TEST_TMP/stub/old"
run comp "$TEST_TMP/stub/old" ""
is "$out$err" "" "a program without the interface: no candidates, no noise"

# ---------------------------------------------------------------- the binary
P=$PIPEBENCH
if ! cmds=$("$P" --list-commands 2>/dev/null) || [ -z "$cmds" ]; then
	for i in 1 2 3; do
		ok 0 "# SKIP $P --list-commands fails: the binary lacks the listing interface"
	done
	exit 0
fi
helpcmds=$("$P" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z_]*\) .*/\1/p')
is "$(echo $cmds)" "$(echo $helpcmds)" "--list-commands lists --help's commands in its order"

# Every command's option listing is well formed: four tab-separated fields,
# a known type, words exactly for word types, and the option in --help.
bad=
for c in $cmds; do
	"$P" "$c" --list-options >"$TEST_TMP/opts" 2>&1 || bad="$bad $c:exit"
	while IFS= read -r l; do
		IFS=$'\t' read -r -d '' -a f < <(printf '%s' "$l")
		case ${f[0]}:${f[1]}:${f[2]} in
		--[a-z]*:-:* | --[a-z]*:-?:*) ;;
		*) bad="$bad $c:'$l'"; continue ;;
		esac
		case ${f[2]} in
		word | words) [ -n "${f[3]}" ] || [ "${f[0]}" = --only ] ||
			[ "${f[0]}" = --skip ] || bad="$bad $c:${f[0]}:no-words" ;;
		flag | count | size | sizes | duration | double | cpus | dir | file | string)
			[ -z "${f[3]}" ] || bad="$bad $c:${f[0]}:words" ;;
		*) bad="$bad $c:${f[0]}:type=${f[2]}" ;;
		esac
		"$P" "$c" --help | grep -q -- "${f[0]}[=, ]" ||
			"$P" "$c" --help | grep -q -- "${f[0]}\$" || bad="$bad $c:${f[0]}:not-in-help"
	done <"$TEST_TMP/opts"
done
is "$bad" "" "every command's --list-options is well formed and matches --help"

ids=$(comp "$P" conformance --only CRE-0)
kinds=$(comp "$P" conformance --kind f)
files=$(cd "$TEST_TMP/files" && comp "$P" compare "")
case "$ids|$kinds|$files" in
*CRE-01*"|fifo|base.json new.json sub dir") ok 0 "the built binary completes IDs, words and files" ;;
*) ok 1 "the built binary completes IDs, words and files"
	diag "--only CRE-0: '$ids'; --kind f: '$kinds'; compare: '$files'" ;;
esac
done_testing
