# pdb — pdb.set_trace() opens the notebook's debugger (ipdb>, repl/debug.c) at
# the line that calls it, as breakpoint() does: p, l, w, u, d look at the
# running frames, c goes on, q stops with BdbQuit. Without a terminal (a script
# in a pipe, a replay) it does nothing, as PYTHONBREAKPOINT=0. Not here: the
# rest of pdb (run, runcall, post_mortem: use %debug in the notebook).
__all__ = ['set_trace']

set_trace = breakpoint
