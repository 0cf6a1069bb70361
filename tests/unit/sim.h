/* SPDX-License-Identifier: GPL-2.0 */
/* The simulations' generator is the one of src/lib/sim.h. */
#include "lib/sim.h"
