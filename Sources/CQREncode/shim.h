// libqrencode (Debian's libqrencode-dev): the QR code `hlspack fixture make`
// burns into every frame.
#ifndef HLSPACK_CQRENCODE_SHIM_H
#define HLSPACK_CQRENCODE_SHIM_H

#include <qrencode.h>

// libqrencode is not linked: `hlspack fixture make` alone uses it and opens it
// with dlopen (QREncodeLibrary.swift). The type of each function it looks up,
// taken from qrencode.h so that a call cannot disagree with the header.
typedef __typeof__(&QRcode_encodeString8bit) hlspack_QRcode_encodeString8bit_fn;
typedef __typeof__(&QRcode_free) hlspack_QRcode_free_fn;

#endif
