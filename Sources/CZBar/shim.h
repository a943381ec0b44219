// libzbar (Debian's libzbar-dev): `hlspack fixture check` reads the QR codes of
// a recording with it. Only the C API is used.
#ifndef HLSPACK_CZBAR_SHIM_H
#define HLSPACK_CZBAR_SHIM_H

#include <zbar.h>

#endif
