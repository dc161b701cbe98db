# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for pipebench.
#
# Nothing here knows pipebench's commands or options: the program being
# completed (the command line's first word, whatever name it was installed
# under) is asked through its listing interface, described in the man page:
#   PROG --list-commands          one command per line
#   PROG CMD --list-options       --LONG <TAB> -L or - <TAB> TYPE <TAB> WORDS
#   PROG CMD --list-operands      "file" when CMD takes file operands
#   PROG conformance --list       check IDs (column 1) and groups (column 3)
# so a new command, option or check completes without touching this file.
# Self-contained: it works with or without the bash-completion package.
# `make` installs a copy registered under the installed name.

# Print the candidates of CANDIDATES (one a line) that start with $1, case
# being ignored (pipebench reads words and check IDs in any case).
_pipebench_match()
{
	local want=${1,,} c
	while IFS= read -r c; do
		[[ -n $c && ${c,,} == "$want"* ]] && printf '%s\n' "$c"
	done
}

# Complete the last item of a comma-separated list CUR from CANDIDATES on
# stdin, keeping the items before it and leaving out those already given.
_pipebench_list()
{
	local cur=$1 head='' item c
	if [[ $cur == *,* ]]; then
		head=${cur%,*},
		item=${cur##*,}
	else
		item=$cur
	fi
	local -A given=()
	local IFS=,
	for c in ${head%,}; do [[ -n $c ]] && given[${c,,}]=1; done
	IFS=$' \t\n'
	_pipebench_match "$item" | while IFS= read -r c; do
		[[ -n ${given[${c,,}]} ]] || printf '%s%s\n' "$head" "$c"
	done
}

_pipebench()
{
	local prog=${COMP_WORDS[0]} cword=$COMP_CWORD
	local cur=${COMP_WORDS[COMP_CWORD]} prev='' pre=''
	local -a words=("${COMP_WORDS[@]}")
	COMPREPLY=()
	# A literal ~/ as typed; bash has not expanded it in COMP_WORDS.
	# shellcheck disable=SC2088
	[[ $prog == '~/'* ]] && prog=$HOME/${prog#'~/'}

	# "--opt=value": bash splits it at '=' when '=' is in COMP_WORDBREAKS
	# (words "--opt" "=" "value"); otherwise it is one word.
	if [[ $cur == = && $cword -ge 2 && ${words[cword-1]} == --* ]]; then
		prev=${words[cword-1]} cur=
		((cword--))
	elif [[ ${words[cword-1]} == = && $cword -ge 3 && ${words[cword-2]} == --* ]]; then
		prev=${words[cword-2]}
		((cword -= 2))
	elif [[ $cur == --*=* ]]; then
		prev=${cur%%=*} pre=$prev= cur=${cur#*=}
	elif ((cword >= 2)); then
		prev=${words[cword-1]}
	fi

	# The command: the first word after the program that is not an option.
	local cmd='' ci i
	local -a cmds
	mapfile -t cmds < <("$prog" --list-commands 2>/dev/null </dev/null)
	((${#cmds[@]})) || return 0
	for ((i = 1; i < cword; i++)); do
		if [[ ${words[i]} != -* ]]; then
			cmd=${words[i]} ci=$i
			break
		fi
	done
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(printf '%s\n' --help --version |
				_pipebench_match "$cur")
		else
			mapfile -t COMPREPLY < <(printf '%s\n' "${cmds[@]}" help |
				_pipebench_match "$cur")
		fi
		return 0
	fi
	local known=''
	for i in "${cmds[@]}" help; do [[ $i == "$cmd" ]] && known=1; done
	[[ -n $known ]] || return 0
	if [[ $cmd == help ]]; then
		((cword == ci + 1)) && mapfile -t COMPREPLY < <(
			printf '%s\n' "${cmds[@]}" | _pipebench_match "$cur")
		return 0
	fi

	local line long short type
	local -a longs=() shorts=() types=() vocabs=()
	while IFS= read -r line; do
		long=${line%%$'\t'*}; line=${line#*$'\t'}
		short=${line%%$'\t'*}; line=${line#*$'\t'}
		type=${line%%$'\t'*}; line=${line#*$'\t'}
		[[ $line == "$type" ]] && line=
		longs+=("$long") shorts+=("$short") types+=("$type") vocabs+=("$line")
	done < <("$prog" "$cmd" --list-options 2>/dev/null </dev/null)

	# Is the word before the cursor an option that takes a value?
	local k=-1 dashdash=''
	for ((i = ci + 1; i < cword; i++)); do
		[[ ${words[i]} == -- ]] && dashdash=1
	done
	if [[ -z $dashdash && -n $prev && $prev == -* ]]; then
		for i in "${!longs[@]}"; do
			if [[ $prev == "${longs[i]}" ||
			      ($prev == "${shorts[i]}" && $prev != - && -z $pre) ]]; then
				k=$i
				break
			fi
		done
		((k >= 0)) && [[ ${types[k]} == flag ]] && k=-1
		# "--flag=value" or an unknown option: nothing to offer.
		((k < 0)) && [[ -n $pre ]] && return 0
	fi

	if ((k >= 0)); then
		local IFS=$'\n'
		case ${longs[k]} in
		--only | --skip)
			mapfile -t COMPREPLY < <("$prog" conformance --list 2>/dev/null </dev/null |
				awk -F '\t' '{ print $1; if (!seen[$3]++) g[++n] = $3 }
					END { for (i = 1; i <= n; i++) print g[i] }' |
				_pipebench_list "$cur")
			;;
		*)
			case ${types[k]} in
			word)
				mapfile -t COMPREPLY < <(tr , '\n' <<<"${vocabs[k]}" |
					_pipebench_match "$cur")
				;;
			words)
				mapfile -t COMPREPLY < <(tr , '\n' <<<"${vocabs[k]}" |
					_pipebench_list "$cur")
				;;
			dir)
				compopt -o filenames 2>/dev/null
				mapfile -t COMPREPLY < <(compgen -d -- "$cur")
				;;
			file)
				compopt -o filenames 2>/dev/null
				mapfile -t COMPREPLY < <(compgen -f -- "$cur")
				;;
			esac
			;;
		esac
		# With '=' kept in the word, the reply replaces all of it.
		[[ -n $pre ]] && COMPREPLY=("${COMPREPLY[@]/#/$pre}")
		return 0
	fi

	local operands
	operands=$("$prog" "$cmd" --list-operands 2>/dev/null </dev/null)
	if [[ -z $dashdash && ($cur == -* || ($cur == "" && $operands != file)) ]]; then
		# Options not given yet (pipebench refuses an option given twice).
		local -A used=()
		for ((i = ci + 1; i < cword; i++)); do
			[[ ${words[i]} == -?* ]] && used[${words[i]%%=*}]=1
		done
		mapfile -t COMPREPLY < <(for i in "${!longs[@]}"; do
			[[ -n ${used[${longs[i]}]} || -n ${used[${shorts[i]}]} ]] ||
				printf '%s\n' "${longs[i]}"
		done | _pipebench_match "$cur")
		return 0
	fi
	if [[ $operands == file ]]; then
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
	fi
	return 0
}

complete -F _pipebench pipebench
