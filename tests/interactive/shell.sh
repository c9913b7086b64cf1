#!/bin/sh
# The shell from the notebook: !cmd shows its output and sets _exit_code,
# $name and {expr} expand, x = !cmd binds the lines, !!cmd echoes them;
# %cd (and %cd -), %pwd, %env (get, set, a missing one), %ls.
# Usage: sh tests/interactive/shell.sh build/nnscope
. "$(dirname "$0")/lib.sh"

mkdir -p "$TMP/work/sub dir" && : > "$TMP/work/afile.txt"
nb_start
nb_type "n = 6"; nb_keys Enter
nb_type "!echo hello {n * 7} \$n \$\$HOME"; nb_keys Enter
nb_wait "hello 42 6 $HOME" # $$ is the shell's $
nb_type "!exit 3"; nb_keys Enter
nb_type "_exit_code"; nb_keys Enter
nb_wait "Out[4]: 3"
nb_type "%cd $TMP/work"; nb_keys Enter
nb_wait "In [6]:"
nb_type "%pwd"; nb_keys Enter
nb_wait "Out[6]: '$TMP/work'"
nb_type "files = !ls"; nb_keys Enter
nb_type "files, _exit_code"; nb_keys Enter
nb_wait "Out[8]: (['afile.txt', 'sub dir'], 0)"
nb_type "!!printf 'a\\nb\\n'"; nb_keys Enter
nb_wait "Out[9]: ['a', 'b']"
nb_type "%ls"; nb_keys Enter
nb_wait "sub dir/"
nb_type "%cd sub dir"; nb_keys Enter
nb_wait "$TMP/work/sub dir"
nb_type "%cd -"; nb_keys Enter
nb_wait_count "$TMP/work" 5
nb_type "%cd /no/such/dir"; nb_keys Enter
nb_wait "[Errno 2] No such file or directory: '/no/such/dir'"
nb_type "%env NNSCOPE_T=a b"; nb_keys Enter
nb_wait "env: NNSCOPE_T=a b"
nb_type "%env NNSCOPE_T"; nb_keys Enter
nb_wait "Out[15]: 'a b'"
nb_type "%env NNSCOPE_NOPE"; nb_keys Enter
nb_wait "UsageError: Environment does not have key: NNSCOPE_NOPE"
nb_type "!echo \$NNSCOPE_T"; nb_keys Enter # the shell's own expansion: set for children
nb_wait_count "a b" 4
nb_finish
