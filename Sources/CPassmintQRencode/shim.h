#ifndef CPASSMINT_QRENCODE_SHIM_H
#define CPASSMINT_QRENCODE_SHIM_H

#include <qrencode.h>

#endif
