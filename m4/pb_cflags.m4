# PB_CHECK_CFLAG(FLAG, ACTION-IF-OK)
# Probe whether the C compiler accepts FLAG (with -Werror, so that an
# unknown-flag warning counts as a refusal) and run ACTION-IF-OK if it does.
AC_DEFUN([PB_CHECK_CFLAG], [
  AS_VAR_PUSHDEF([pb_cv], [pb_cv_cflag_$1])
  AC_CACHE_CHECK([whether $CC accepts $1], [pb_cv], [
    pb_save_CFLAGS=$CFLAGS
    CFLAGS="$CFLAGS -Werror $1"
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
      [AS_VAR_SET([pb_cv], [yes])], [AS_VAR_SET([pb_cv], [no])])
    CFLAGS=$pb_save_CFLAGS])
  AS_VAR_IF([pb_cv], [yes], [$2])
  AS_VAR_POPDEF([pb_cv])
])
