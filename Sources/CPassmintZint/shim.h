#ifndef CPASSMINT_ZINT_SHIM_H
#define CPASSMINT_ZINT_SHIM_H

#include <zint.h>

#endif
