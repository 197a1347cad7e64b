#ifndef CPASSMINT_PNG_SHIM_H
#define CPASSMINT_PNG_SHIM_H
#include <spng.h>
#endif
