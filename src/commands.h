/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RAFLEET_COMMANDS_H
#define RAFLEET_COMMANDS_H

#include "lib/exitcode.h"
#include "lib/version.h"

int cmd_bench(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_canary(int argc, char **argv);
int cmd_guard(int argc, char **argv);
int cmd_health(int argc, char **argv);
int cmd_pin(int argc, char **argv);
int cmd_promote(int argc, char **argv);
int cmd_recover(int argc, char **argv);
int cmd_rollback(int argc, char **argv);
int cmd_smoke(int argc, char **argv);
int cmd_stage(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_trialwatch(int argc, char **argv);
int cmd_tune(int argc, char **argv);

#endif
