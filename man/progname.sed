# The installed page (Makefile.am's gen/pipebench.1) is man/pipebench.1 with
# the installed name (configure's --program-prefix, --program-suffix,
# --program-transform-name) for @NAME@ and in capitals for @TITLE@, wherever
# the page names the program being run: its title, NAME and SYNOPSIS,
# examples, quoted command lines and quoted messages.  tests/manpage.sh
# applies it and fails on a command line it leaves saying plain pipebench.
# BUGS' `.Nm pipebench .` is Debian's other pipebench and keeps its name.
s/^\.Dt PIPEBENCH /.Dt @TITLE@ /
/^\.Sh NAME/,/^\.Sh /s/^\.Nm pipebench$/.Nm @NAME@/
/^\.Sh NAME/,/^\.Sh /s/^\.Nm pipebench /.Nm @NAME@ /
s/^\.Dl \$ pipebench /.Dl $ @NAME@ /
s/^pipebench \([a-z_]*\):/@NAME@ \1:/
s/ pipebench \([a-z_]*\):/ @NAME@ \1:/g
# A command line quoted by a macro (.Dq pipebench timestamps -q):
s/\(^\.\| \)\([A-Z][a-z]\) pipebench \([a-z_-]\)/\1\2 @NAME@ \3/g
