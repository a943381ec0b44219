// libqrencode (Debian's libqrencode-dev): the QR code `hlspack fixture make`
// burns into every frame.
#ifndef HLSPACK_CQRENCODE_SHIM_H
#define HLSPACK_CQRENCODE_SHIM_H

#include <qrencode.h>

#endif
