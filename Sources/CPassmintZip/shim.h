#ifndef CPASSMINT_ZIP_SHIM_H
#define CPASSMINT_ZIP_SHIM_H
#include <zip.h>
#endif
