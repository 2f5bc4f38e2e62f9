/* commands.h: the scopecat commands, each in its own file (cmd_*.c,
 * gpu.c), called by main (scopecat.c) with the command's name in argv[0]
 * and its arguments after it; each returns the exit status. */
#ifndef SC_COMMANDS_H
#define SC_COMMANDS_H

int cmd_parse(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_gpu(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_fences(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_kernel(int argc, char **argv);

#endif
